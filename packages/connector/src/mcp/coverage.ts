import { covers, DEFAULT_LIST, type Coverage } from '../auth/coverage.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'

/**
 * A call held to what its grant covers (auth/coverage.ts), before anything else: every input
 * field that names one of the service's resources (services/catalog.ts, GrantedResource),
 * whichever tool and wherever in its arguments (a move's destination as well as its list).
 * Nothing is sent to the provider and nothing is asked of the person for a call that names a
 * resource the grant does not cover.
 */

/** The first value in `args` naming a resource that `coverage` does not cover, as given. */
export function uncovered(
  service: ServiceName,
  args: Record<string, unknown>,
  coverage: Coverage,
): string | undefined {
  if (coverage.all) return undefined
  const { fields, idOf } = SERVICES[service].resource
  for (const field of fields) {
    const value = args[field]
    if (typeof value !== 'string') continue
    const id = value === DEFAULT_LIST || !idOf ? value : idOf(value)
    if (!covers(coverage, id)) return value
  }
  return undefined
}

/** Whether `coverage` covers a resource as a listing names it (a list's id, properties/N). */
export const coveredBy = (coverage: Coverage) => (id: string) => covers(coverage, id)
