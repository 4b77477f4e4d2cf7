import { h } from './dom.js'
import type { Formats } from './format.js'
import { lines, timeAxisOf } from './over-time.js'
import { rankedTable } from './ranked.js'
import { metricValue, tableOf, type Table } from './table.js'
import { figures, heading, notes, startView } from './view.js'

/**
 * query_search_analytics: by date (or hour), clicks and impressions over time with the totals
 * Search Console shows above its chart; by anything else, the rows ranked; without dimensions,
 * the totals alone.
 */

startView({
  name: 'search-performance',
  waiting: 'Waiting for the search performance…',
  draw(drawing) {
    const table = tableOf(drawing.content)
    if (!table) throw new Error('not a search-performance table')
    const { input, formats } = drawing
    const top = [
      heading(
        'Search performance',
        siteName(input.siteUrl),
        range(formats, input.startDate, input.endDate),
        typeOf(input.type),
      ),
    ]
    const more = notes(
      table.firstIncompleteDate &&
        `Data from ${formats.day(table.firstIncompleteDate)} on is not final yet.`,
      table.nextStartRow !== undefined &&
        `The first ${table.rows.length} rows; the assistant can fetch the next ones.`,
    )
    if (!table.rows.length)
      return [...top, h('p', { class: 'notice' }, 'No clicks or impressions in this period.')]
    const totals = totalsOf(table, formats)
    if (!table.dimensions.length) return [...top, figures(totals)]
    if (timeAxisOf(table) && table.dimensions.length === 1)
      return [
        ...top,
        ...lines(table, drawing, {
          tiles: totals,
          shown: [0, 1],
          caption: `Clicks and impressions by ${table.dimensions[0]} for ${siteName(input.siteUrl) ?? 'the site'}`,
        }),
        ...(more ? [more] : []),
      ]
    return [
      ...top,
      rankedTable(table, formats, `Search performance by ${table.dimensions.join(' and ')}`),
      ...(more ? [more] : []),
    ]
  },
})

/**
 * Over all rows: clicks and impressions summed, CTR their ratio, position weighted by
 * impressions, as Search Console totals them. Only where the rows are the whole period (no next
 * page) is a total shown.
 */
function totalsOf(table: Table, formats: Formats): { label: string; value?: string }[] {
  const [clicksMetric, impressionsMetric, ctrMetric, positionMetric] = table.metrics
  const whole = table.nextStartRow === undefined
  let clicks = 0
  let impressions = 0
  let weighted = 0
  for (const row of table.rows) {
    const rowImpressions = metricValue(table, row, 1) ?? 0
    clicks += metricValue(table, row, 0) ?? 0
    impressions += rowImpressions
    weighted += (metricValue(table, row, 3) ?? 0) * rowImpressions
  }
  const value = (metric: Table['metrics'][number] | undefined, v: number) =>
    whole && metric ? formats.value(metric, v) : undefined
  return [
    { label: 'Total clicks', value: value(clicksMetric, clicks) },
    { label: 'Total impressions', value: value(impressionsMetric, impressions) },
    { label: 'Average CTR', value: value(ctrMetric, impressions ? clicks / impressions : 0) },
    {
      label: 'Average position',
      value: impressions ? value(positionMetric, weighted / impressions) : undefined,
    },
  ]
}

/** sc-domain:example.com → example.com; https://www.example.com/ → www.example.com. */
function siteName(siteUrl: unknown): string | undefined {
  if (typeof siteUrl !== 'string') return undefined
  return siteUrl
    .replace(/^sc-domain:/, '')
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '')
}

function range(formats: Formats, start: unknown, end: unknown): string | undefined {
  if (typeof start !== 'string' || typeof end !== 'string') return undefined
  return start === end ? formats.day(start) : `${formats.day(start)} – ${formats.day(end)}`
}

const TYPES: Readonly<Record<string, string>> = {
  image: 'Image search',
  video: 'Video search',
  news: 'News search',
  discover: 'Discover',
  googleNews: 'Google News',
}

const typeOf = (type: unknown) => (typeof type === 'string' ? TYPES[type] : undefined)
