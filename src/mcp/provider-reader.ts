import type { ProviderReader } from '../services/definition.js'
import type { ServiceName } from '../services/catalog.js'
import type { ApiGrant, UpstreamApi } from '../upstream/index.js'

/**
 * A definition's reads of the provider (to describe a change, or to check arguments against what
 * the provider holds), made as the grant, through the same client as the tools' own calls:
 * same deadline, retries and breaker. A failure is the call's own UpstreamApiError.
 */
export function providerReader(
  api: Pick<UpstreamApi, 'call'>,
  service: ServiceName,
  grant: ApiGrant,
): ProviderReader {
  return {
    async get(path, pathParams) {
      const result = await api.call(
        { service, method: 'GET', path, pathParams, idempotent: true },
        grant,
      )
      return result.body
    },
  }
}
