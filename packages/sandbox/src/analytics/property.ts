import { ownsProperty } from '../account/assets.js'
import { builtInAssets } from '../account/users.js'
import type { SandboxDb } from '../db/open.js'
import { forbidden, invalidArgument } from '../http/errors.js'
import { parseDay } from '../synthetic/calendar.js'
import { seedOf, Weighted } from '../synthetic/random.js'
import { COUNTRIES, LOCALES, PLACES, SITE_KINDS, type SiteKind } from './vocabulary.js'

/**
 * An analytics property: its numeric id in the path, who owns it (account/assets.ts), and the
 * profile its synthetic data grows from. The profile is derived from the ids, so it is the same
 * on every run and needs no storage, for built-in and added properties alike.
 */

export interface PropertyProfile {
  id: string
  site: SiteKind
  timeZone: string
  currency: string
  /** The first day with data: the property was created then. */
  firstDay: number
  /** Sessions on an average day when the property was created; traffic grows from there. */
  dailySessions: number
  /** Where sessions come from: the property's home country weighs more. */
  places: Weighted
}

const PROPERTY_ID = /^[1-9][0-9]{0,17}$/
const PROPERTY_ID_HELP =
  'To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.'

/** The property of a path, checked: a number (400 otherwise) that the user owns (403 otherwise). */
export async function ownedProperty(
  db: SandboxDb,
  user: string,
  raw: string,
): Promise<PropertyProfile> {
  if (!PROPERTY_ID.test(raw))
    throw invalidArgument(
      `Invalid property ID "${raw.slice(0, 64)}": a property ID is a number, such as 1234 in properties/1234. ${PROPERTY_ID_HELP}`,
    )
  if (!(await ownsProperty(db, user, raw)))
    throw forbidden(
      `User does not have sufficient permissions for this property. ${PROPERTY_ID_HELP}`,
    )
  return profileOf(raw, siteKindOf(user, raw))
}

/**
 * The kind of site a property of the user measures: the user's two built-in properties are
 * different kinds (their first one's id decides which), so that their metadata and data differ;
 * an added property's kind comes from its own id.
 */
export function siteKindOf(user: string, id: string): SiteKind {
  const builtIn = builtInAssets(user).properties
  const index = builtIn.indexOf(id)
  const seed = index < 0 ? seedOf(id, 'site') : seedOf(builtIn[0]!, 'site') + index
  return SITE_KINDS[seed % SITE_KINDS.length]!
}

const profiles = new Map<string, PropertyProfile>()
const MAX_PROFILES = 1000
const EARLIEST_CREATION = parseDay('2022-01-01')!

/** The rest of a property's profile comes from its own id. */
function profileOf(id: string, site: SiteKind): PropertyProfile {
  const known = profiles.get(id)
  if (known) return known
  const locale = LOCALES[seedOf(id, 'locale') % LOCALES.length]!
  const home = COUNTRIES.findIndex((country) => country.id === locale.home)
  const profile: PropertyProfile = {
    id,
    site,
    timeZone: locale.timeZone,
    currency: locale.currency,
    firstDay: EARLIEST_CREATION + (seedOf(id, 'created') % 730),
    dailySessions: 500 + (seedOf(id, 'size') % 2500),
    places: new Weighted(
      PLACES.map(({ country }) => {
        const weight = COUNTRIES[country]!.weight / COUNTRIES[country]!.cities.length
        return country === home ? weight * 4 : weight
      }),
    ),
  }
  if (profiles.size >= MAX_PROFILES) profiles.delete(profiles.keys().next().value!)
  profiles.set(id, profile)
  return profile
}
