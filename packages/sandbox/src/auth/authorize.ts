import type { Context } from 'hono'
import { CROSS_SITE_MESSAGE, isCrossSitePost } from '../account/cross-site.js'
import { currentUser, startSession } from '../account/session.js'
import { ensureUser, userName } from '../account/users.js'
import type { SandboxEnv } from '../core/state.js'
import { FormError, readForm } from '../http/form.js'
import { checkAuthorizeRequest, type AuthorizeErrorCode } from './authorize-request.js'
import { withParams } from './client.js'
import { brokenRequestPage, consentPage } from './consent-page.js'
import { storeCode } from './grants.js'
import { fullScope } from './scopes.js'

const check = (c: Context<SandboxEnv>) =>
  checkAuthorizeRequest(new URL(c.req.url).searchParams, c.var.dialect.scopePrefix)

/** The answer at the client's redirect_uri, with `iss` (RFC 9207) and the state echoed. */
function answer(
  c: Context<SandboxEnv>,
  redirectUri: string,
  params: {
    code?: string
    error?: AuthorizeErrorCode
    error_description?: string
    state?: string
    scope?: string
    authuser?: string
    prompt?: string
  },
  status: 302 | 303,
) {
  return c.redirect(withParams(redirectUri, { ...params, iss: c.var.dialect.origin }), status)
}

/** `GET /oauth/authorize`: the sign-in and consent page, or an error. */
export async function showAuthorize(c: Context<SandboxEnv>) {
  const checked = check(c)
  if (checked.kind === 'broken') return brokenRequestPage(c, checked.message)
  if (checked.kind === 'refused') {
    const { redirectUri, state, error, description } = checked
    return answer(c, redirectUri, { error, error_description: description, state }, 302)
  }
  return consentPage(c, checked.request, { user: await currentUser(c) })
}

/** `POST /oauth/authorize`: the person's decision; the request is checked all over again. */
export async function decideAuthorize(c: Context<SandboxEnv>) {
  const checked = check(c)
  if (checked.kind === 'broken') return brokenRequestPage(c, checked.message)
  if (checked.kind === 'refused') {
    const { redirectUri, state, error, description } = checked
    return answer(c, redirectUri, { error, error_description: description, state }, 303)
  }
  const request = checked.request
  if (isCrossSitePost(c)) return consentPage(c, request, { message: CROSS_SITE_MESSAGE }, 400)
  let form: URLSearchParams
  try {
    form = await readForm(c)
  } catch (err) {
    if (!(err instanceof FormError)) throw err
    return consentPage(c, request, { message: err.message }, 400)
  }

  if (form.has('Deny')) {
    return answer(
      c,
      request.redirectUri,
      {
        error: 'access_denied',
        error_description: 'The user denied access.',
        state: request.state,
      },
      303,
    )
  }
  const typed = form.get('user') ?? ''
  if (!form.has('Allow')) {
    return consentPage(c, request, { user: typed, message: 'Choose Allow or Deny.' }, 400)
  }
  const user = userName.safeParse(typed.trim())
  if (!user.success) {
    const why = user.error.issues[0]?.message ?? 'user is not valid'
    return consentPage(c, request, { user: typed, message: `Change the user name: ${why}.` }, 400)
  }

  const { db } = c.var.sandbox
  const { oauth, scopePrefix } = c.var.dialect
  await ensureUser(db, user.data)
  await startSession(c, user.data)
  const code = await storeCode(db, {
    user: user.data,
    client: request.clientId,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    refreshToken: request.offline || !oauth.refreshTokenOnlyOffline,
  })
  // Google also tells the client what was granted, for whom and how it was asked.
  const echoed = oauth.callbackEchoesGrant && {
    scope: request.scopes.map((s) => fullScope(s, scopePrefix)).join(' '),
    authuser: '0',
    prompt: 'consent',
  }
  return answer(c, request.redirectUri, { code, state: request.state, ...echoed }, 303)
}
