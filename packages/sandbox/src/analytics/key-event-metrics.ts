import { ratio, type Metric } from './fields.js'
import { KEY_EVENT_MEASURES, M, type KeyEventName } from './measures.js'
import type { PropertyProfile } from './property.js'

/**
 * The metrics a property has per key event, as getMetadata lists them after the standard ones
 * (`keyEvents:purchase`, `sessionKeyEventRate:purchase`, `userKeyEventRate:purchase`), for each
 * of its kind of site's key events. Computed like their all-key-event counterparts.
 */
export function keyEventMetrics(profile: PropertyProfile): Metric[] {
  return profile.site.keyEvents.flatMap((event) => {
    const measures = KEY_EVENT_MEASURES[event as KeyEventName]
    if (!measures) return []
    return [
      {
        apiName: `keyEvents:${event}`,
        uiName: `Key events for ${event}`,
        description: 'The count of a specific key event.',
        type: 'TYPE_INTEGER',
        scope: 'event',
        category: 'Event',
        value: (sums) => sums[measures.events]!,
      },
      {
        apiName: `sessionKeyEventRate:${event}`,
        uiName: `Session key event rate for ${event}`,
        description: 'The percentage of sessions in which a specific key event was triggered.',
        type: 'TYPE_FLOAT',
        scope: 'session',
        category: 'Session',
        value: (sums) => ratio(sums[measures.sessions]!, sums[M.sessions]!),
      },
      {
        apiName: `userKeyEventRate:${event}`,
        uiName: `User key event rate for ${event}`,
        description: 'The percentage of users who triggered a specific key event.',
        type: 'TYPE_FLOAT',
        scope: 'session',
        category: 'User',
        value: (sums) => ratio(sums[measures.users]!, sums[M.activeUsers]!),
      },
    ] satisfies Metric[]
  })
}
