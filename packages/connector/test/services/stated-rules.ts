import {
  filtersIn,
  ID_FIELDS,
  kindsOf,
  present,
  PROVIDER_ID,
  PROVIDER_SITE,
  URL_FIELDS,
} from './given-values.js'

/**
 * The rules a tool's listing states in words, because its JSON Schema cannot say them (between
 * fields, against the provider's values, inside a piece shown in brief), known here as the test
 * reads them, with no code of the connector's: where the listing says each, when arguments break
 * it, and what the refusal says. A value the schema admits may be refused only for one of these.
 */

type Args = Record<string, any>

export interface StatedRule {
  rule: string
  tools: readonly string[]
  /** A phrase of the tool's description or inputSchema that says it. */
  stated: RegExp
  /** Whether the arguments, as sent, break it. */
  broken: (args: Args) => boolean
  /** What the refusal says, after the field's path. */
  says: RegExp
  /**
   * For a value that must come from the provider: one that does not may be refused, not must
   * (the provider is the judge of what it gave).
   */
  may?: true
}

const TOOLS_WITH_IDS = [
  'create_task',
  'delete_task',
  'get_task',
  'list_tasks',
  'move_task',
  'update_task',
] as const
const TIMESTAMP_FIELDS = [
  'due',
  'completed',
  'dueMin',
  'dueMax',
  'completedMin',
  'completedMax',
  'updatedMin',
]
const SITE_TOOLS = [
  'get_site',
  'inspect_url',
  'list_sitemaps',
  'query_search_analytics',
  'submit_sitemap',
]
const REPORT_TOOLS = ['run_report', 'run_reports', 'run_realtime_report']

/** The reports of a call: run_reports's requests, or the call itself. */
const reports = (args: Args): Args[] => (args.requests as Args[] | undefined) ?? [args]
const inAnyReport = (test: (report: Args) => boolean) => (args: Args) => reports(args).some(test)
const list = (value: unknown): any[] => (present(value) ? (value as any[]) : [])
const twice = (names: unknown[]) => names.some((name, i) => names.indexOf(name) !== i)

/**
 * Whether an RFC 3339 date-time is one of Google's timestamps: a written year from 1, an instant
 * in the years 1 to 9999, seconds to 59, at most 9 decimals.
 */
function googleTimestamp(text: string): boolean {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/.exec(
      text,
    )
  if (!m) return false
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[]
  if (year! < 1 || second! > 59 || (m[7]?.length ?? 0) > 9) return false
  const instant = new Date(0)
  instant.setUTCFullYear(year!, month! - 1, day!)
  const offset = (m[8] === '-' ? -1 : 1) * (Number(m[9] ?? 0) * 60 + Number(m[10] ?? 0))
  instant.setUTCHours(hour!, minute! - offset, second!)
  const utcYear = instant.getUTCFullYear()
  return utcYear >= 1 && utcYear <= 9999
}

/** A report date as days before today (relative) or since the epoch; undefined if none. */
function reportDay(text: string): { relative: boolean; day: number } | undefined {
  if (text === 'today') return { relative: true, day: 0 }
  if (text === 'yesterday') return { relative: true, day: 1 }
  const ago = /^(\d{1,5})daysAgo$/.exec(text)
  if (ago) return { relative: true, day: Number(ago[1]) }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return undefined
  const [year, month, day] = m.slice(1).map(Number) as [number, number, number]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  const real = date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  return real ? { relative: false, day: date.getTime() / 86_400_000 } : undefined
}

/** Whether `url` lies within the site, as list_sites' sites hold their pages. */
function withinSite(site: string, url: string): boolean {
  let page: URL
  try {
    page = new URL(url)
  } catch {
    return false
  }
  if (!/^https?:$/.test(page.protocol)) return false
  if (site.startsWith('sc-domain:')) {
    const domain = site.slice('sc-domain:'.length)
    return page.hostname === domain || page.hostname.endsWith(`.${domain}`)
  }
  return page.href.startsWith(new URL(site).href)
}

const isProviderSite = (site: unknown) => typeof site === 'string' && PROVIDER_SITE.test(site)

export const STATED_RULES: readonly StatedRule[] = [
  // The task service.
  {
    rule: 'an id is one the provider gave',
    tools: TOOLS_WITH_IDS,
    stated: /from list_task_lists|from list_tasks/,
    broken: (args) =>
      ID_FIELDS.some((field) => args[field] !== undefined && !PROVIDER_ID.test(args[field])),
    says: /cannot be "\." or "\.\."|cannot contain control characters/,
    may: true,
  },
  {
    rule: 'timestamps are Google’s',
    tools: ['create_task', 'list_tasks', 'update_task'],
    stated: /RFC 3339 within Google’s range: years 1 to 9999, no leap second, at most 9 decimals/,
    broken: (args) =>
      TIMESTAMP_FIELDS.some(
        (field) => typeof args[field] === 'string' && !googleTimestamp(args[field]),
      ),
    says: /must be an RFC 3339 timestamp .*in the years 1 to 9999/,
  },
  // The search service.
  {
    rule: 'a site is one of list_sites',
    tools: SITE_TOOLS,
    stated: /exactly as list_sites gives it/,
    broken: (args) => !isProviderSite(args.siteUrl),
    says: /^siteUrl/,
    may: true,
  },
  {
    rule: 'a URL lies within siteUrl',
    tools: ['inspect_url', 'list_sitemaps', 'submit_sitemap'],
    stated: /within siteUrl|of the site/,
    broken: (args) =>
      URL_FIELDS.some(
        (field) =>
          args[field] !== undefined &&
          (!isProviderSite(args.siteUrl) || !withinSite(args.siteUrl, args[field])),
      ),
    says: /is not within the site/,
  },
  {
    rule: 'startDate on or before endDate',
    tools: ['query_search_analytics'],
    stated: /on or after startDate/,
    broken: (args) => args.startDate > args.endDate,
    says: /startDate \S+ is after endDate/,
  },
  {
    rule: 'each dimension once',
    tools: ['query_search_analytics'],
    stated: /Group by these, each once/,
    broken: (args) => twice(list(args.dimensions)),
    says: /names "\w+" twice/,
  },
  {
    rule: 'searchAppearance is grouped alone',
    tools: ['query_search_analytics'],
    stated: /searchAppearance is grouped alone/,
    broken: (args) => {
      const dimensions = list(args.dimensions)
      return dimensions.includes('searchAppearance') && dimensions.length > 1
    },
    says: /searchAppearance cannot be grouped with other dimensions/,
  },
  {
    rule: 'hour needs hourly_all',
    tools: ['query_search_analytics'],
    stated: /hour needs dataState hourly_all/,
    broken: (args) => list(args.dimensions).includes('hour') && args.dataState !== 'hourly_all',
    says: /grouping by hour needs dataState "hourly_all"/,
  },
  {
    rule: 'byProperty not with page',
    tools: ['query_search_analytics'],
    stated: /byProperty \(not with page\)/,
    broken: (args) =>
      args.aggregationType === 'byProperty' &&
      (list(args.dimensions).includes('page') ||
        list(args.dimensionFilterGroups).some((group) =>
          group.filters.some((f: Args) => f.dimension === 'page'),
        )),
    says: /"byProperty" cannot be used when grouping or filtering by page/,
  },
  {
    rule: 'byNewsShowcasePanel with its type and filter',
    tools: ['query_search_analytics'],
    stated:
      /byNewsShowcasePanel \(with type discover or googleNews and a filter searchAppearance equals NEWS_SHOWCASE\)/,
    broken: (args) =>
      args.aggregationType === 'byNewsShowcasePanel' &&
      (!['discover', 'googleNews'].includes(args.type) ||
        !list(args.dimensionFilterGroups).some((group) =>
          group.filters.some(
            (f: Args) =>
              f.dimension === 'searchAppearance' &&
              (f.operator ?? 'equals') === 'equals' &&
              f.expression === 'NEWS_SHOWCASE',
          ),
        )),
    says: /"byNewsShowcasePanel" needs/,
  },
  {
    rule: 'a page is compared as its full URL',
    tools: ['query_search_analytics'],
    stated: /a page as its full URL/,
    broken: (args) =>
      list(args.dimensionFilterGroups).some((group) =>
        group.filters.some((f: Args) => {
          if (f.dimension !== 'page') return false
          const operator = f.operator ?? 'equals'
          if (operator === 'equals' || operator === 'notEquals') return f.expression.startsWith('/')
          return /Regex$/.test(operator) && f.expression.startsWith('^/')
        }),
      ),
    says: /page values are full URLs/,
  },
  {
    rule: 'regular expressions are RE2',
    tools: ['query_search_analytics'],
    stated: /RE2 syntax/,
    broken: (args) =>
      list(args.dimensionFilterGroups).some((group) =>
        group.filters.some(
          (f: Args) =>
            /Regex$/.test(f.operator ?? '') &&
            /\(\?<?[=!]|\\[1-9]|\\k</.test(f.expression as string),
        ),
      ),
    says: /RE2 syntax has no/,
  },
  // The analytics service.
  {
    rule: 'offset pages a filter',
    tools: ['get_metadata'],
    stated: /With a filter: the first entry/,
    broken: (args) =>
      args.offset !== undefined &&
      !present(args.names) &&
      args.category === undefined &&
      args.search === undefined,
    says: /offset pages the entries of names, category or search/,
  },
  {
    rule: 'a date is a real day',
    tools: ['run_report', 'run_reports'],
    stated: /Dates are YYYY-MM-DD/,
    broken: inAnyReport((report) =>
      report.dateRanges.some(
        (range: Args) => !reportDay(range.startDate) || !reportDay(range.endDate),
      ),
    ),
    says: /must be YYYY-MM-DD \(a real date/,
  },
  {
    rule: 'a range starts on or before its end',
    tools: ['run_report', 'run_reports'],
    stated: /First day, included.*Last day, included/s,
    broken: inAnyReport((report) =>
      report.dateRanges.some((range: Args) => {
        const [start, end] = [reportDay(range.startDate), reportDay(range.endDate)]
        if (!start || !end || start.relative !== end.relative) return false
        return start.relative ? start.day < end.day : start.day > end.day
      }),
    ),
    says: /is after endDate .*: swap them/,
  },
  {
    rule: 'a range’s name is not a default’s',
    tools: REPORT_TOOLS,
    stated: /not starting date_range_ or RESERVED_/,
    broken: inAnyReport((report) =>
      [...list(report.dateRanges), ...list(report.minuteRanges)].some((range: Args) =>
        /^(date_range_|RESERVED_)/.test(range.name ?? ''),
      ),
    ),
    says: /name cannot begin with date_range_ or RESERVED_/,
  },
  {
    rule: 'each dimension and metric once',
    tools: REPORT_TOOLS,
    stated: /each once/,
    broken: inAnyReport(
      (report) =>
        twice(list(report.dimensions).map((d) => d.name)) ||
        twice(list(report.metrics).map((m) => m.name)),
    ),
    says: /is listed twice: list it once/,
  },
  {
    rule: 'an orderBy sorts by one metric or one dimension',
    tools: REPORT_TOOLS,
    stated: /each by one metric or one dimension of the report/,
    broken: inAnyReport((report) =>
      list(report.orderBys).some(
        (order: Args) => [order.metric, order.dimension].filter(present).length !== 1,
      ),
    ),
    says: /an orderBy takes one of metric or dimension/,
  },
  {
    rule: 'an orderBy sorts by what the report shows',
    tools: REPORT_TOOLS,
    stated: /each by one metric or one dimension of the report/,
    broken: inAnyReport((report) => {
      const metrics = list(report.metrics).map((m) => m.name)
      const dimensions = list(report.dimensions).map((d) => d.name)
      const ranges = list(report.dateRanges ?? report.minuteRanges).length
      return list(report.orderBys).some((order: Args) => {
        const metric = present(order.metric) ? order.metric.metricName : undefined
        const dimension = present(order.dimension) ? order.dimension.dimensionName : undefined
        return (
          (metric !== undefined && !metrics.includes(metric)) ||
          (dimension !== undefined &&
            !dimensions.includes(dimension) &&
            !(dimension === 'dateRange' && ranges > 1))
        )
      })
    }),
    says: /which is not in (metrics|dimensions)/,
  },
  {
    rule: 'a minute range starts no later than it ends',
    tools: ['run_realtime_report'],
    stated: /The earliest minute.*The latest minute/s,
    broken: (args) =>
      list(args.minuteRanges).some(
        (range: Args) => (range.startMinutesAgo ?? 29) < (range.endMinutesAgo ?? 0),
      ),
    says: /is more recent than endMinutesAgo/,
  },
  {
    rule: 'metric filters compare numbers',
    tools: REPORT_TOOLS,
    stated: /on metrics, with numericFilter or betweenFilter/,
    broken: inAnyReport((report) =>
      filtersIn(report.metricFilter).some((filter) =>
        kindsOf(filter).some((kind) => kind !== 'numericFilter' && kind !== 'betweenFilter'),
      ),
    ),
    says: /metric filters compare numbers/,
  },
]
