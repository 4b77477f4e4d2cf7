import { userAssets } from '../account/users.js'
import { forbidden, invalidArgument } from '../http/errors.js'
import { parseDay } from '../synthetic/calendar.js'
import { seedOf, Weighted } from '../synthetic/random.js'
import { COUNTRIES, LOCALES, PLACES, SITE_KINDS, type SiteKind } from './vocabulary.js'

/**
 * An analytics property: its numeric id in the path, who owns it (`userAssets`), and the profile
 * its synthetic data grows from. Everything is derived from the ids, so it is the same on every
 * run and needs no storage.
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
export function ownedProperty(user: string, raw: string): PropertyProfile {
  if (!PROPERTY_ID.test(raw))
    throw invalidArgument(
      `Invalid property ID "${raw.slice(0, 64)}": a property ID is a number, such as 1234 in properties/1234. ${PROPERTY_ID_HELP}`,
    )
  const owned = userAssets(user).properties
  const index = owned.indexOf(raw)
  if (index < 0)
    throw forbidden(
      `User does not have sufficient permissions for this property. ${PROPERTY_ID_HELP}`,
    )
  return profileOf(owned, index)
}

const profiles = new Map<string, PropertyProfile>()
const MAX_PROFILES = 1000
const EARLIEST_CREATION = parseDay('2022-01-01')!

/**
 * A user's properties are different kinds of site (their first property's id decides which), so
 * that their metadata and data differ; the rest comes from the property's own id.
 */
function profileOf(owned: readonly string[], index: number): PropertyProfile {
  const id = owned[index]!
  const known = profiles.get(id)
  if (known) return known
  const site = SITE_KINDS[(seedOf(owned[0]!, 'site') + index) % SITE_KINDS.length]!
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
