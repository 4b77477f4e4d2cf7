import { seedOf } from '../synthetic/random.js'
import type { PropertyProfile } from './property.js'
import { NOT_SET } from './vocabulary.js'

/**
 * The ids a property's reports show for what the synthetic data names in words: a city's
 * geographic id, a continent's, the property's one web data stream and its one audience (every
 * property has "All Users"). Derived from names and ids, so they are the same on every run.
 */

export const cityId = (city: string) =>
  city === NOT_SET ? city : String(1_000_000 + (seedOf(city) % 9_000_000))

/** The UN M49 codes Google uses as continent ids. */
const CONTINENT_IDS: Readonly<Record<string, string>> = {
  Africa: '002',
  Americas: '019',
  Asia: '142',
  Europe: '150',
  Oceania: '009',
}
export const continentId = (continent: string) => CONTINENT_IDS[continent] ?? NOT_SET

export const streamIdOf = (profile: PropertyProfile) =>
  String(2_000_000_000 + (seedOf(profile.id, 'stream') % 1_000_000_000))

export const streamNameOf = (profile: PropertyProfile) => `${profile.site.hostName} (web)`

export const ALL_USERS = 'All Users'

export const audienceIdOf = (profile: PropertyProfile) =>
  String(1_000_000_000 + (seedOf(profile.id, 'audience') % 9_000_000_000))

export const audienceResourceNameOf = (profile: PropertyProfile) =>
  `properties/${profile.id}/audiences/${audienceIdOf(profile)}`
