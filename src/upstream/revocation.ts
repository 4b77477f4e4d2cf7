import type { Logger } from 'pino'
import type { UpstreamCredentials } from '../vault/credentials.js'
import type { OAuthClient } from './oauth-client.js'
import type { StoredTokenSets } from './stored-token-set.js'
import type { TokenSet } from './token-set.js'

/** Ending credentials: at the provider (RFC 7009), and in the store. */

export interface RevocationDeps {
  client: OAuthClient
  log: Logger
}

/**
 * Revokes the refresh token (which ends the grant, and its access tokens with it, RFC 7009 §2.1)
 * or else the access token, under the client's deadline. A failure is logged, never thrown: the
 * caller has nothing better to do than go on.
 */
export async function revokeQuietly(
  deps: RevocationDeps,
  tokens: { access_token: string; refresh_token?: string | undefined },
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

export interface DisconnectDeps extends RevocationDeps {
  tokenSets: StoredTokenSets
  credentials: UpstreamCredentials
}

/**
 * Disconnect: erases the credential, then revokes it at the provider. Erasing first means the
 * connector stops acting at once, however long the provider takes (a refresh in flight cannot
 * write it back: its compare-and-set finds no row); a provider that is down keeps its token,
 * which the person can still revoke on the provider's own page.
 */
export async function revokeAndErase(deps: DisconnectDeps, credentialId: string): Promise<void> {
  let set: TokenSet | undefined
  try {
    set = (await deps.tokenSets.read(credentialId))?.set
  } catch (error) {
    // Sealed under a retired key, or not a token set: nothing to revoke with, still erased.
    deps.log.warn(
      { credentialId, reason: (error as Error).message },
      'upstream credential unreadable: erased without revocation',
    )
  }
  await deps.credentials.erase(credentialId)
  if (!set) return
  const revoked = await revokeQuietly(deps, set, { credentialId })
  deps.log.info({ credentialId, revoked }, 'upstream credential erased')
}
