import type { Logger } from 'pino'
import type { UpstreamCredentials } from '../vault/credentials.js'
import type { OAuthClient } from './oauth-client.js'
import type { StoredTokenSet, StoredTokenSets } from './stored-token-set.js'

/**
 * Ending credentials: at the provider (RFC 7009), and in the store.
 *
 * What one revocation ends is the provider's to say (the profile's `revocation`). At most
 * providers, the token's own grant. At Google, every token the person holds for the OAuth client,
 * which all of the connector's grants share: revoking one service's credential would end the
 * person's other services too. There a credential is revoked only when it is the person's last
 * here, and tokens the connector does not keep are left to expire while the person has others.
 */

export interface RevocationDeps {
  client: OAuthClient
  credentials: UpstreamCredentials
  revocation: 'grant' | 'person'
  log: Logger
}

type Tokens = { access_token: string; refresh_token?: string | undefined }

/**
 * Revokes the refresh token (which ends the grant, and its access tokens with it, RFC 7009 §2.1)
 * or else the access token, under the client's deadline. A failure is logged, never thrown: the
 * caller has nothing better to do than go on.
 */
async function revokeQuietly(
  deps: RevocationDeps,
  tokens: Tokens,
  context: Record<string, string>,
): Promise<boolean> {
  const started = Date.now()
  try {
    if (tokens.refresh_token !== undefined) {
      await deps.client.revoke(tokens.refresh_token, 'refresh_token')
    } else {
      await deps.client.revoke(tokens.access_token, 'access_token')
    }
    return true
  } catch (error) {
    deps.log.warn(
      { ...context, ms: Date.now() - started, reason: (error as Error).message },
      'upstream revocation failed',
    )
    return false
  }
}

/**
 * Whether revoking a token of `subject` (undefined: not known) would end connections the person
 * still has here. Asked after their own credential, if any, is erased: of two of the person's
 * credentials erased at once, the second to ask then revokes.
 */
async function wouldEndOthers(deps: RevocationDeps, subject: string | undefined) {
  if (deps.revocation === 'grant') return false
  return subject === undefined || (await deps.credentials.heldBy(subject))
}

/**
 * Ends tokens the connector does not keep (a sign-in's; an authorization nobody will use) at the
 * provider, unless that would end the person's other connections.
 */
export async function endUnkeptTokens(
  deps: RevocationDeps,
  tokens: Tokens,
  subject: string | undefined,
  context: Record<string, string>,
): Promise<boolean> {
  if (await wouldEndOthers(deps, subject)) {
    deps.log.info(
      context,
      'upstream tokens left to expire: revoking them would end other connections',
    )
    return false
  }
  return revokeQuietly(deps, tokens, context)
}

export interface DisconnectDeps extends RevocationDeps {
  tokenSets: StoredTokenSets
}

/**
 * Disconnect: erases the credential, then revokes it at the provider (unless that would end the
 * person's other connections, see above). Erasing first means the connector stops acting at once,
 * however long the provider takes (a refresh in flight cannot write it back: its compare-and-set
 * finds no row); a provider that is down keeps its token, which the person can still revoke on the
 * provider's own page.
 */
export async function revokeAndErase(deps: DisconnectDeps, credentialId: string): Promise<void> {
  let stored: StoredTokenSet | undefined
  try {
    stored = await deps.tokenSets.read(credentialId)
  } catch (error) {
    // Sealed under a retired key, or not a token set: nothing to revoke with, still erased.
    deps.log.warn(
      { credentialId, reason: (error as Error).message },
      'upstream credential unreadable: erased without revocation',
    )
  }
  await deps.credentials.erase(credentialId)
  if (!stored) return
  if (await wouldEndOthers(deps, stored.subject)) {
    deps.log.info(
      { credentialId, revoked: false },
      'upstream credential erased; not revoked: the person has other connections through this client',
    )
    return
  }
  const revoked = await revokeQuietly(deps, stored.set, { credentialId })
  deps.log.info({ credentialId, revoked }, 'upstream credential erased')
}
