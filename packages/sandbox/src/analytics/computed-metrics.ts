import { ratio } from './fields.js'
import { M } from './measures.js'

/**
 * The standard metrics the engine computes from a row's sums (measures.ts), by API name. A rate
 * or an average is computed from summed parts, so a total's is never a sum of rows' rates. Every
 * other standard metric answers 0, as a property without such data does (no ads, no refunds, no
 * app, no Search Console link).
 */

type Value = (sums: Float64Array) => number

const sum =
  (m: number): Value =>
  (sums) =>
    sums[m]!
const per =
  (a: number, b: number): Value =>
  (sums) =>
    ratio(sums[a]!, sums[b]!)
/** Money is summed in minor units. */
const money =
  (m: number): Value =>
  (sums) =>
    sums[m]! / 100
const moneyPer =
  (a: number, b: number): Value =>
  (sums) =>
    ratio(sums[a]!, sums[b]!) / 100

export const COMPUTED_METRICS: ReadonlyMap<string, Value> = new Map(
  Object.entries({
    // User
    activeUsers: sum(M.activeUsers),
    newUsers: sum(M.newUsers),
    totalUsers: sum(M.totalUsers),
    userEngagementDuration: sum(M.engagementDuration),
    totalPurchasers: sum(M.purchaseUsers),
    userKeyEventRate: per(M.keyEventUsers, M.activeUsers),
    purchaserRate: per(M.purchaseUsers, M.activeUsers),
    // Session
    sessions: sum(M.sessions),
    engagedSessions: sum(M.engagedSessions),
    engagementRate: per(M.engagedSessions, M.sessions),
    bounceRate: (sums: Float64Array) =>
      sums[M.sessions] ? 1 - sums[M.engagedSessions]! / sums[M.sessions]! : 0,
    averageSessionDuration: per(M.sessionDuration, M.sessions),
    sessionsPerUser: per(M.sessions, M.activeUsers),
    sessionKeyEventRate: per(M.keyEventSessions, M.sessions),
    // Page / Screen
    screenPageViews: sum(M.screenPageViews),
    screenPageViewsPerSession: per(M.screenPageViews, M.sessions),
    screenPageViewsPerUser: per(M.screenPageViews, M.activeUsers),
    // Event
    eventCount: sum(M.eventCount),
    eventsPerSession: per(M.eventCount, M.sessions),
    eventCountPerUser: per(M.eventCount, M.activeUsers),
    keyEvents: sum(M.keyEvents),
    // Ecommerce
    transactions: sum(M.transactions),
    ecommercePurchases: sum(M.transactions),
    transactionsPerPurchaser: per(M.transactions, M.purchaseUsers),
    addToCarts: sum(M.addToCarts),
    checkouts: sum(M.checkouts),
    itemViewEvents: sum(M.itemViewEvents),
    itemsViewed: sum(M.itemsViewed),
    itemsAddedToCart: sum(M.itemsAddedToCart),
    itemsPurchased: sum(M.itemsPurchased),
    itemRevenue: money(M.itemRevenue),
    grossItemRevenue: money(M.itemRevenue),
    purchaseRevenue: money(M.purchaseRevenue),
    grossPurchaseRevenue: money(M.purchaseRevenue),
    // Revenue: purchases are the sites' only revenue
    totalRevenue: money(M.purchaseRevenue),
    averagePurchaseRevenue: moneyPer(M.purchaseRevenue, M.transactions),
    averagePurchaseRevenuePerUser: moneyPer(M.purchaseRevenue, M.activeUsers),
    averagePurchaseRevenuePerPayingUser: moneyPer(M.purchaseRevenue, M.purchaseUsers),
    averageRevenuePerUser: moneyPer(M.purchaseRevenue, M.activeUsers),
  }),
)
