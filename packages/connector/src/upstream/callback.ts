import * as oauth from 'oauth4webapi'
import type { Logger } from 'pino'
import { UpstreamAuthorizationError, UpstreamUnavailableError } from './errors.js'
import { ProviderRefusal, type OAuthClient } from './oauth-client.js'
import type { CallbackKind, Pending, PendingAuthorizations } from './pending.js'
import { endUnkeptTokens, type RevocationDeps } from './revocation.js'

/**
 * The part of a return from the provider that connections and sign-ins share: use the state up,
 * read the provider's answer, exchange the code with the PKCE verifier, and learn who the person
 * is. Every failure becomes an UpstreamAuthorizationError whose message the person can act on.
 */

export interface CallbackDeps extends RevocationDeps {
  client: OAuthClient
  pending: PendingAuthorizations
  log: Logger
}

export interface Received<K extends CallbackKind> {
  pending: Extract<Pending, { kind: K }>
  tokens: oauth.TokenEndpointResponse
  subject: string
}

/** Where the person starts over: a connection from the assistant, a sign-in from the page. */
const AGAIN: Record<CallbackKind, string> = {
  authorization: 'start again from your assistant',
  'sign-in': 'sign in again',
}

export async function receiveCallback<K extends CallbackKind>(
  deps: CallbackDeps,
  callbackUrl: URL,
  kind: K,
): Promise<Received<K>> {
  const again = AGAIN[kind]
  const fail = (code: UpstreamAuthorizationError['code'], message: string, cause?: unknown) =>
    new UpstreamAuthorizationError(code, `${message}; ${again}.`, { cause })

  const states = callbackUrl.searchParams.getAll('state')
  const state = states.length === 1 ? states[0] : undefined
  if (!state) throw fail('invalid_state', 'This sign-in link is not valid')
  const taken = await deps.pending.take(state, kind)
  if (taken.status === 'unknown') {
    throw fail('invalid_state', 'This sign-in link is not valid or was already used')
  }
  if (taken.status === 'expired') throw fail('expired', 'This sign-in link expired')
  const { pending } = taken as Extract<typeof taken, { status: 'taken' }>

  let params: URLSearchParams
  try {
    params = deps.client.validateCallback(callbackUrl, state)
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      deps.log.info({ kind, error: error.error }, 'provider authorization not granted')
      if (error.error === 'access_denied') {
        throw fail('denied', "You declined on the provider's page, so nothing was connected", error)
      }
      throw fail('provider_error', `The provider could not complete it (${error.error})`, error)
    }
    deps.log.warn({ kind, reason: (error as Error).message }, 'provider answer refused')
    throw fail('provider_error', 'The answer did not come from the expected provider', error)
  }

  let tokens: oauth.TokenEndpointResponse
  try {
    tokens = await deps.client.exchangeCode(params, pending.codeVerifier)
  } catch (error) {
    throw providerFailure(deps, kind, 'code exchange', error, fail)
  }

  try {
    const subject = await deps.client.subject(tokens)
    return { pending, tokens, subject }
  } catch (error) {
    // Tokens nobody will use are ended at once, where that ends nothing else.
    await endUnkeptTokens(deps, tokens, undefined, { kind })
    throw providerFailure(deps, kind, 'userinfo', error, fail)
  }
}

function providerFailure(
  deps: CallbackDeps,
  kind: CallbackKind,
  step: string,
  error: unknown,
  fail: (code: 'provider_error', message: string, cause?: unknown) => UpstreamAuthorizationError,
) {
  if (error instanceof UpstreamUnavailableError) {
    deps.log.warn({ kind, step, reason: error.message }, 'provider unavailable')
    return fail('provider_error', 'The provider could not be reached to finish', error)
  }
  if (error instanceof ProviderRefusal) {
    deps.log.warn({ kind, step, status: error.status, error: error.error }, 'provider refused')
    return fail('provider_error', `The provider did not accept it (${error.error})`, error)
  }
  return error
}
