import { z } from 'zod'

/**
 * The quotas of Google's that the sandbox enforces, each with Google's default beside it
 * (docs/sandbox.md, "Quotas"). `POST /_sandbox/quotas` sets them, low enough for a test to run
 * out; `POST /_sandbox/reset` brings the defaults back. More quotas join this one declaration.
 */
export const GOOGLE_QUOTAS = {
  /** Tokens a GA4 property may spend on reports in a day (a standard property; GA360: 2M). */
  analyticsTokensPerDay: 200_000,
  /** Tokens a GA4 property may spend on reports in an hour (a standard property; GA360: 400K). */
  analyticsTokensPerHour: 40_000,
  /** Tasks API queries a project (the OAuth client of the token) may make in a Pacific day. */
  tasksQueriesPerDay: 50_000,
  /** Search Console: search analytics queries on one site in a minute. */
  searchAnalyticsQueriesPerMinutePerSite: 1_200,
  /** Search Console: search analytics queries by one user (of one project) in a minute. */
  searchAnalyticsQueriesPerMinutePerUser: 1_200,
  /** Search Console: search analytics queries by a project in a minute. */
  searchAnalyticsQueriesPerMinutePerProject: 40_000,
  /** Search Console: search analytics queries by a project in a Pacific day. */
  searchAnalyticsQueriesPerDayPerProject: 30_000_000,
  /** Search Console: URL inspections of one site in a minute. */
  urlInspectionsPerMinutePerSite: 600,
  /** Search Console: URL inspections of one site in a Pacific day. */
  urlInspectionsPerDayPerSite: 2_000,
  /** Search Console: URL inspections by a project in a minute. */
  urlInspectionsPerMinutePerProject: 15_000,
  /** Search Console: URL inspections by a project in a Pacific day. */
  urlInspectionsPerDayPerProject: 10_000_000,
  /** Search Console's other resources (sites, sitemaps): queries by one user in a minute. */
  searchConsoleOtherQueriesPerMinutePerUser: 200,
  /** Search Console's other resources (sites, sitemaps): queries by a project in a Pacific day. */
  searchConsoleOtherQueriesPerDayPerProject: 100_000_000,
  /** Analytics Admin API (account summaries): requests by a project in a minute. */
  analyticsAdminRequestsPerMinutePerProject: 1_200,
  /** Analytics Admin API (account summaries): requests by one user (of one project) in a minute. */
  analyticsAdminRequestsPerMinutePerUser: 600,
} as const

export type QuotaName = keyof typeof GOOGLE_QUOTAS
export type Limits = Record<QuotaName, number>

const NAMES = Object.keys(GOOGLE_QUOTAS) as QuotaName[]
const WHOLE = 'give a whole number, 0 or more'
const limit = z.number(WHOLE).int(WHOLE).min(0, WHOLE)

/** The body of `POST /_sandbox/quotas`: any of the limits; a name it does not know is refused. */
export const quotaChange = z.strictObject(
  Object.fromEntries(NAMES.map((name) => [name, limit.optional()])) as {
    [name in QuotaName]: z.ZodOptional<typeof limit>
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.map((key) => `"${key}"`).join(', ')}: the quotas are ${NAMES.join(', ')}`
        : undefined,
  },
)

/** The limits in force in one running sandbox. */
export class QuotaLimits {
  #limits: Limits = { ...GOOGLE_QUOTAS }

  get current(): Readonly<Limits> {
    return this.#limits
  }

  /** Sets the limits `change` gives, keeps the others, and says what is now in force. */
  set(change: Partial<Limits>): Limits {
    const given = Object.entries(change).filter(([, value]) => value !== undefined)
    this.#limits = { ...this.#limits, ...Object.fromEntries(given) }
    return { ...this.#limits }
  }

  reset(): void {
    this.#limits = { ...GOOGLE_QUOTAS }
  }
}
