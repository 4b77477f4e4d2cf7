import type { Provider } from 'oidc-provider'
import type { PendingChoice } from './choices.js'
import type { Coverage, CoverageSeal } from './coverage.js'
import { isDocumentClientId } from './clients.js'
import type { Grants } from './grants.js'
import { resourceOf } from './resources.js'

/**
 * The grant: exactly the service's resource and the scopes granted, with its upstream
 * credential, covering what the person chose, and where its authorization sends the person back.
 * It replaces any earlier grant of the same person, registered client and service. A client named
 * by a metadata document is one app installed on many machines (every Claude Code shares one
 * id): each of its authorizations is a connection of its own, so that connecting a second machine
 * does not disconnect the first.
 */
export async function newGrant(
  deps: { publicUrl: string; provider: Provider; grants: Grants; coverage: CoverageSeal },
  choice: PendingChoice,
  { clientId, returnsTo }: { clientId: string; returnsTo: string },
  coverage: Coverage,
) {
  const resource = resourceOf(deps.publicUrl, choice.service)
  const grant = new deps.provider.Grant({ accountId: choice.account, clientId })
  grant.addResourceScope(resource, choice.scopes.join(' '))
  const grantId = await grant.save()
  const owner = { account: choice.account, clientId, service: choice.service }
  await deps.grants.link(
    { grantId, credentialId: choice.credentialId, returnsTo, ...owner },
    deps.coverage.seal(grantId, coverage),
  )
  if (isDocumentClientId(clientId)) return grantId
  for (const earlier of await deps.grants.linksOf(owner)) {
    if (earlier.grantId !== grantId)
      await deps.grants.end(earlier.grantId, 'replaced by a new authorization')
  }
  return grantId
}
