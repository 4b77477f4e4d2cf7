import { historyStart, HOURLY_DAYS, pacificNow } from './calendar.js'
import { buildCatalog, type SiteCatalog } from './catalog.js'
import { generateDaily, type FactTable, type SearchType } from './facts.js'
import { splitIntoHours } from './hourly.js'

/**
 * The fact tables of the sites people query, generated on first use and kept in a small
 * in-memory cache (least recently used goes first). Nothing here is stored: the data is a pure
 * function of the user, the site, the type and the day, so a restart only costs a regeneration.
 */

export interface SiteFacts {
  catalog: SiteCatalog
  type: SearchType
  /** Today in Pacific Time, and the current hour: where fresh data ends. */
  today: number
  hour: number
  /** Every day of the history, through today. */
  daily: FactTable
  /** The last HOURLY_DAYS days by hour; today only up to the current hour. */
  hourly(): FactTable
}

const MAX_TABLES = 8
const MAX_CATALOGS = 64
const tables = new Map<string, SiteFacts>()
const catalogs = new Map<string, SiteCatalog>()

/** Keeps `map` to `max` entries, dropping the least recently used. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value!)
  return value
}

/** The catalog alone: the pages and queries a site has (URL inspection reads it). */
export function siteCatalog(user: string, site: string): SiteCatalog {
  const key = `${user}\n${site}`
  const hit = catalogs.get(key)
  return remember(catalogs, key, hit ?? buildCatalog(user, site), MAX_CATALOGS)
}

export function siteFacts(
  user: string,
  site: string,
  type: SearchType,
  now = Date.now(),
): SiteFacts {
  const { day: today, hour } = pacificNow(now)
  const key = `${user}\n${site}\n${type}\n${today}`
  const hit = tables.get(key)
  if (hit) {
    hit.hour = hour
    return remember(tables, key, hit, MAX_TABLES)
  }
  const catalog = siteCatalog(user, site)
  const daily = generateDaily(user, catalog, type, historyStart(today), today)
  let hourly: { hour: number; table: FactTable } | undefined
  const facts: SiteFacts = {
    catalog,
    type,
    today,
    hour,
    daily,
    hourly() {
      if (hourly?.hour !== facts.hour) {
        const seed = `${user}\n${site}\n${type}`
        const first = today - HOURLY_DAYS + 1
        hourly = {
          hour: facts.hour,
          table: splitIntoHours(daily, seed, first, today, facts.hour),
        }
      }
      return hourly.table
    },
  }
  return remember(tables, key, facts, MAX_TABLES)
}
