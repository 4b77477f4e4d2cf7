import { ProviderError } from '../http/errors.js'
import { repeated } from '../http/form.js'
import { clientIdProblem, redirectUriProblem } from './client.js'
import { missingMessage } from './oauth-errors.js'
import { CHALLENGE_METHOD, S256_CHALLENGE } from './pkce.js'
import { parseScopes } from './scopes.js'

/** A valid authorization request, as the consent page shows it and the decision uses it. */
export interface AuthorizeRequest {
  clientId: string
  redirectUri: string
  /** Short scope names. */
  scopes: string[]
  state: string | undefined
  codeChallenge: string
  /** OpenID Connect: echoed in the ID token, when the dialect issues one. */
  nonce: string | undefined
  /** `access_type=offline`: Google gives a refresh token only then. */
  offline: boolean
  /** The request's parameters again: the consent form posts back to `?` + this. */
  query: string
}

export type AuthorizeErrorCode =
  'invalid_request' | 'invalid_scope' | 'unsupported_response_type' | 'access_denied'

type CheckedRequest =
  /** No redirect_uri that can be trusted with an answer: say so on a page, never redirect. */
  | { kind: 'broken'; message: string }
  /** Refused: the answer goes back to the client's redirect_uri. */
  | {
      kind: 'refused'
      redirectUri: string
      state: string | undefined
      error: AuthorizeErrorCode
      description: string
    }
  | { kind: 'valid'; request: AuthorizeRequest }

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'access_type',
] as const

/**
 * Checks an authorization request (RFC 6749 §4.1.1 with RFC 7636 PKCE, S256 only).
 * `nonce` and `access_type` are kept for the dialects that use them (Google's); `prompt`,
 * `include_granted_scopes` and other extras are accepted and ignored.
 */
export function checkAuthorizeRequest(query: URLSearchParams, scopePrefix: string): CheckedRequest {
  const twice = repeated(query, ['client_id', 'redirect_uri'])
  if (twice.length) return { kind: 'broken', message: `Send ${twice.join(' and ')} once.` }
  const clientId = query.get('client_id')
  const redirectUri = query.get('redirect_uri')
  const problem = clientIdProblem(clientId) ?? redirectUriProblem(redirectUri)
  if (problem || !clientId || !redirectUri) return { kind: 'broken', message: problem ?? '' }

  const state = query.getAll('state').length === 1 ? (query.get('state') ?? undefined) : undefined
  const refuse = (error: AuthorizeErrorCode, description: string): CheckedRequest => ({
    kind: 'refused',
    redirectUri,
    state,
    error,
    description,
  })

  const dup = repeated(query, PARAMS)
  if (dup.length) return refuse('invalid_request', `Send each parameter once: ${dup.join(', ')}.`)
  const responseType = query.get('response_type')
  if (!responseType) return refuse('invalid_request', missingMessage(['response_type']))
  if (responseType !== 'code') {
    return refuse('unsupported_response_type', 'Only response_type=code is supported.')
  }
  const challenge = query.get('code_challenge')
  const method = query.get('code_challenge_method')
  if (!challenge) {
    return refuse(
      'invalid_request',
      'PKCE is required: send code_challenge and code_challenge_method=S256.',
    )
  }
  if (method !== CHALLENGE_METHOD) {
    return refuse(
      'invalid_request',
      method
        ? `code_challenge_method=${method} is not supported: use S256.`
        : 'code_challenge_method is missing (it would mean plain): use S256.',
    )
  }
  if (!S256_CHALLENGE.test(challenge)) {
    return refuse(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code verifier: 43 characters.',
    )
  }
  const scope = query.get('scope') ?? ''
  if (!scope.trim()) return refuse('invalid_scope', 'scope is missing: ask for at least one scope.')
  let scopes: string[]
  try {
    scopes = parseScopes(scope, scopePrefix)
  } catch (err) {
    if (err instanceof ProviderError) return refuse('invalid_scope', err.message)
    throw err
  }

  const accessType = query.get('access_type')
  if (accessType !== null && accessType !== 'online' && accessType !== 'offline')
    return refuse('invalid_request', 'access_type must be online or offline.')

  const again = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    code_challenge: challenge,
    code_challenge_method: CHALLENGE_METHOD,
  })
  if (state !== undefined) again.set('state', state)
  const nonce = query.get('nonce') ?? undefined
  if (nonce !== undefined) again.set('nonce', nonce)
  if (accessType !== null) again.set('access_type', accessType)
  return {
    kind: 'valid',
    request: {
      clientId,
      redirectUri,
      scopes,
      state,
      codeChallenge: challenge,
      nonce,
      offline: accessType === 'offline',
      query: again.toString(),
    },
  }
}
