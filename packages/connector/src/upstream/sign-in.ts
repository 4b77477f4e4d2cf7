import { receiveCallback, type CallbackDeps } from './callback.js'
import { OAuthClient } from './oauth-client.js'
import { endUnkeptTokens } from './revocation.js'

/**
 * Sign-in to the connector's own pages (the person's connections) through the provider: identity
 * only. The scope is `openid`, the token is revoked once the person is known (or, where that would
 * end their connections too, left to expire), and nothing is stored but the pending state while
 * the browser is away.
 */

export type SignInDeps = CallbackDeps

export interface CompletedSignIn {
  /** The person's identity at the provider. */
  subject: string
  /** The connector path given to beginSignIn. */
  returnTo: string
}

export const IDENTITY_SCOPE = 'openid'

export async function beginSignIn(deps: SignInDeps, returnTo: string): Promise<URL> {
  // Only a path of the connector itself: anything else would make the callback an open redirect.
  if (!/^\/(?![/\\])/.test(returnTo) || /[\s\p{Cc}]/u.test(returnTo)) {
    throw new TypeError('returnTo must be a path on the connector, starting with a single "/"')
  }
  const pkce = await OAuthClient.newPkce()
  const state = await deps.pending.create({
    kind: 'sign-in',
    returnTo,
    codeVerifier: pkce.verifier,
  })
  return deps.client.authorizationUrl({ state, pkce, scope: IDENTITY_SCOPE })
}

export async function completeSignIn(deps: SignInDeps, callbackUrl: URL): Promise<CompletedSignIn> {
  const { pending, tokens, subject } = await receiveCallback(deps, callbackUrl, 'sign-in')
  // The identity is all that was wanted: end the provider's grant at once.
  await endUnkeptTokens(deps, tokens, subject, { kind: 'sign-in' })
  deps.log.info('signed in through the provider')
  return { subject, returnTo: pending.returnTo }
}
