import type { Provider } from 'oidc-provider'
import type { PendingChoice } from './choices.js'
import type { Coverage, CoverageSeal } from './coverage.js'
import type { Grants } from './grants.js'
import { resourceOf } from './resources.js'

/**
 * The grant: exactly the service's resource and the scopes granted, with its upstream
 * credential, covering what the person chose. It replaces any earlier grant of the same
 * person, client and service.
 */
export async function newGrant(
  deps: { publicUrl: string; provider: Provider; grants: Grants; coverage: CoverageSeal },
  choice: PendingChoice,
  clientId: string,
  coverage: Coverage,
) {
  const resource = resourceOf(deps.publicUrl, choice.service)
  const grant = new deps.provider.Grant({ accountId: choice.account, clientId })
  grant.addResourceScope(resource, choice.scopes.join(' '))
  const grantId = await grant.save()
  const owner = { account: choice.account, clientId, service: choice.service }
  await deps.grants.link(
    { grantId, credentialId: choice.credentialId, ...owner },
    deps.coverage.seal(grantId, coverage),
  )
  for (const earlier of await deps.grants.linksOf(owner)) {
    if (earlier.grantId !== grantId)
      await deps.grants.end(earlier.grantId, 'replaced by a new authorization')
  }
  return grantId
}
