import * as oauth from 'oauth4webapi'
import type { Logger } from 'pino'
import type { TestingMode } from '../services/profiles/index.js'
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
  /** The profile's: an app in Testing mode lets only its test users in. */
  testingMode?: TestingMode
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
      if (error.error === 'access_denied') throw denied(deps, kind, again, error)
      deps.log.info({ kind, error: error.error }, 'provider authorization not granted')
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

/**
 * The person declined at the provider; or, to an app in Testing mode, the provider refused them
 * on its own page for not being a test user, and answers the same access_denied. The person and
 * the operator are told what to change if that is what the provider's page said.
 */
function denied(
  deps: CallbackDeps,
  kind: CallbackKind,
  again: string,
  error: oauth.AuthorizationResponseError,
): UpstreamAuthorizationError {
  const declined = `You declined on the provider's page, so nothing was connected; ${again}.`
  const fields = { kind, error: error.error }
  if (!deps.testingMode) {
    deps.log.info(fields, 'provider authorization not granted')
    return new UpstreamAuthorizationError('denied', declined, { cause: error })
  }
  deps.log.info(
    fields,
    'Google answered access_denied: the person declined, or the app is in Testing mode and they are not one of its test users: add their Google address under Google Auth Platform → Audience → Test users',
  )
  return new UpstreamAuthorizationError(
    'denied',
    `${declined} If Google said that the app is being tested and you are not one of its testers, the connector's operator must first add your Google address under Google Auth Platform → Audience → Test users.`,
    { cause: error },
  )
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
