import type { sandboxForSuite } from './sandbox.js'

type Sandbox = ReturnType<typeof sandboxForSuite>

/**
 * Google's defaults for every quota the sandbox enforces (docs/sandbox.md, "Quotas"), written out
 * here so that a changed default fails the tests rather than passing unseen.
 */
export const GOOGLE_DEFAULTS = {
  analyticsTokensPerDay: 200_000,
  analyticsTokensPerHour: 40_000,
  tasksQueriesPerDay: 50_000,
  searchAnalyticsQueriesPerMinutePerSite: 1_200,
  searchAnalyticsQueriesPerMinutePerUser: 1_200,
  searchAnalyticsQueriesPerMinutePerProject: 40_000,
  searchAnalyticsQueriesPerDayPerProject: 30_000_000,
  urlInspectionsPerMinutePerSite: 600,
  urlInspectionsPerDayPerSite: 2_000,
  urlInspectionsPerMinutePerProject: 15_000,
  urlInspectionsPerDayPerProject: 10_000_000,
  searchConsoleOtherQueriesPerMinutePerUser: 200,
  searchConsoleOtherQueriesPerDayPerProject: 100_000_000,
  analyticsAdminRequestsPerMinutePerProject: 1_200,
  analyticsAdminRequestsPerMinutePerUser: 600,
}

export type QuotaName = keyof typeof GOOGLE_DEFAULTS

/** Sets some of the quotas through the control API (`POST /_sandbox/quotas`). */
export const setQuotas = (sandbox: Sandbox, body: unknown) =>
  sandbox.request('POST', '/_sandbox/quotas', { body })
