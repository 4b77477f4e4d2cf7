import type { ProviderReader } from '../services/definition.js'
import type { ServiceName } from '../services/catalog.js'
import { pathParamsOf } from '../services/definition.js'
import { operationOf, type ProviderProfile } from '../services/profiles/index.js'
import { quotaOf } from '../quotas/shared-quotas.js'
import type { ApiGrant, UpstreamApi } from '../upstream/index.js'

/**
 * A definition's reads of the provider (to describe a change, or to check arguments against what
 * the provider holds), made as the grant, through the same client as the tools' own calls:
 * same deadline, retries and breaker. Each read is named by its operation, which the profile
 * places; it takes the path parameters it needs from `params`. A failure is the call's own
 * UpstreamApiError.
 */
export function providerReader(
  api: Pick<UpstreamApi, 'call'>,
  profile: ProviderProfile,
  service: ServiceName,
  grant: ApiGrant,
): ProviderReader {
  return {
    async get(name, params) {
      const { method, path } = operationOf(profile, name)
      if (method !== 'GET')
        throw new Error(`${name} is not a read: its ${profile.name} call is ${method}.`)
      const pathParams: Record<string, string> = {}
      for (const param of pathParamsOf(path)) pathParams[param] = params[param]!
      const result = await api.call(
        { service, quota: quotaOf(service, name), method, path, pathParams, idempotent: true },
        grant,
      )
      return result.body
    },
  }
}
