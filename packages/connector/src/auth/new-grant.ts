import type { PendingChoice } from './choices.js'
import type { Coverage } from './coverage.js'
import { isDocumentClientId } from './clients.js'
import type { InteractionParts } from './interaction-parts.js'
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
  parts: Pick<InteractionParts, 'config' | 'provider' | 'grants' | 'coverage'>,
  choice: PendingChoice,
  { clientId, returnsTo }: { clientId: string; returnsTo: string },
  coverage: Coverage,
) {
  const resource = resourceOf(parts.config.publicUrl, choice.service)
  const grant = new parts.provider.Grant({ accountId: choice.account, clientId })
  grant.addResourceScope(resource, choice.scopes.join(' '))
  const grantId = await grant.save()
  const owner = { account: choice.account, clientId, service: choice.service }
  await parts.grants.link(
    { grantId, credentialId: choice.credentialId, returnsTo, ...owner },
    parts.coverage.seal(grantId, coverage),
  )
  if (isDocumentClientId(clientId)) return grantId
  for (const earlier of await parts.grants.linksOf(owner)) {
    if (earlier.grantId !== grantId)
      await parts.grants.end(earlier.grantId, 'replaced by a new authorization')
  }
  return grantId
}
