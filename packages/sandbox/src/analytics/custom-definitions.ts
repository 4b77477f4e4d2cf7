import type { CoreDimension } from './core-dimension.js'
import type { PropertyProfile } from './property.js'
import { MEMBERSHIP_TIERS } from './vocabulary.js'

/**
 * A property's custom definitions: the two event-scoped parameters its kind of site registers
 * and the user-scoped membership tier every property has. They are listed with the standard
 * dimensions, marked `customDefinition`.
 */
export function customDimensions(profile: PropertyProfile): CoreDimension[] {
  const [first, second] = profile.site.customEvents
  const custom = (
    apiName: string,
    uiName: string,
    scope: 'session' | 'event',
    description: string,
    code: CoreDimension['code'],
    labels: readonly string[],
  ): CoreDimension => ({
    apiName,
    uiName,
    description,
    customDefinition: true,
    category: 'Custom',
    scope,
    code,
    label: (c) => labels[c]!,
  })
  return [
    custom(
      'customUser:membership_tier',
      'Membership tier',
      'session',
      'User-scoped custom dimension: the membership tier of the user.',
      (b, s) => b.sessions.tier[s]!,
      MEMBERSHIP_TIERS,
    ),
    custom(
      `customEvent:${first.parameter}`,
      first.uiName,
      'event',
      `Event-scoped custom dimension: ${first.description}`,
      (b, _s, x) => b.events.custom0[x]!,
      first.values,
    ),
    custom(
      `customEvent:${second.parameter}`,
      second.uiName,
      'event',
      `Event-scoped custom dimension: ${second.description}`,
      (b, _s, x) => b.events.custom1[x]!,
      second.values,
    ),
  ]
}
