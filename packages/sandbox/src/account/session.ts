import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { html } from 'hono/html'
import { hashSecret, randomToken } from '../core/secrets.js'
import type { SandboxEnv } from '../core/state.js'
import { FormError, readForm } from '../http/form.js'
import { page } from '../http/page.js'
import { CROSS_SITE_MESSAGE, isCrossSitePost } from './cross-site.js'
import { ensureUser, userName } from './users.js'

/*
 * The sign-in cookie. The sandbox names its users rather than authenticating them, so a
 * session only remembers who last signed in through this browser. The cookie value is random
 * and the store keeps only its SHA-256; HttpOnly, SameSite=Lax, Path=/ (and Secure when the
 * sandbox is served over https).
 */

const COOKIE = 'sandbox_session'

/** The user signed in through this browser, if any. */
export async function currentUser(c: Context<SandboxEnv>): Promise<string | undefined> {
  const value = getCookie(c, COOKIE)
  if (!value) return undefined
  const row = await c.var.sandbox.db
    .selectFrom('sessions')
    .select('user_id')
    .where('session_hash', '=', hashSecret(value))
    .executeTakeFirst()
  return row?.user_id
}

/** Signs this browser in as `user`, replacing any session it had. */
export async function startSession(c: Context<SandboxEnv>, user: string): Promise<void> {
  await forgetSession(c)
  const value = randomToken('ss_')
  await c.var.sandbox.db
    .insertInto('sessions')
    .values({ session_hash: hashSecret(value), user_id: user, created: new Date().toISOString() })
    .execute()
  setCookie(c, COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.var.sandbox.config.publicUrl.startsWith('https:'),
  })
}

/** Signs this browser out. */
async function endSession(c: Context<SandboxEnv>): Promise<void> {
  await forgetSession(c)
  deleteCookie(c, COOKIE, { path: '/' })
}

async function forgetSession(c: Context<SandboxEnv>): Promise<void> {
  const value = getCookie(c, COOKIE)
  if (!value) return
  await c.var.sandbox.db
    .deleteFrom('sessions')
    .where('session_hash', '=', hashSecret(value))
    .execute()
}

const DEFAULT_NEXT = '/account/connections'

/** Where to go after signing in: only a path on this origin (one leading `/`), else the default. */
function safeNext(next: string | null | undefined): string {
  if (!next || !/^\/(?![/\\])/.test(next) || /[\\\p{Cc}\s]/u.test(next)) return DEFAULT_NEXT
  try {
    const base = 'http://sandbox.invalid'
    return new URL(next, base).origin === base ? next : DEFAULT_NEXT
  } catch {
    return DEFAULT_NEXT
  }
}

/**
 * The sign-in form: a field `user`, a `Sign in` button, and where to go afterwards.
 * It posts to `POST /account/sign-in`.
 */
export function signInForm(next: string, message?: string, user = '') {
  return html`<form method="post" action="/account/sign-in">
    <input type="hidden" name="next" value="${safeNext(next)}" />
    ${message ? html`<p role="alert"><strong>${message}</strong></p>` : ''}
    <p>
      <label for="sign-in-user">User name</label><br />
      <input
        type="text"
        id="sign-in-user"
        name="user"
        value="${user}"
        autocomplete="username"
        maxlength="64"
      />
    </p>
    <p><button type="submit">Sign in</button></p>
    <p><small>This is a development provider: you may sign in under any user name.</small></p>
  </form>`
}

/** `POST /account/sign-in`: starts the session and goes to `next` (303). */
export async function signIn(c: Context<SandboxEnv>) {
  let form: URLSearchParams
  try {
    form = await readForm(c)
  } catch (err) {
    if (!(err instanceof FormError)) throw err
    return page(c, 'Sign in', signInForm(DEFAULT_NEXT, err.message), 400)
  }
  const next = safeNext(form.get('next'))
  if (isCrossSitePost(c)) return page(c, 'Sign in', signInForm(next, CROSS_SITE_MESSAGE), 400)
  const raw = form.get('user') ?? ''
  const parsed = userName.safeParse(raw.trim())
  if (!parsed.success) {
    const why = parsed.error.issues[0]?.message ?? 'user is not valid'
    return page(c, 'Sign in', signInForm(next, `Change the user name: ${why}.`, raw), 400)
  }
  await ensureUser(c.var.sandbox.db, parsed.data)
  await startSession(c, parsed.data)
  return c.redirect(next, 303)
}

/** `POST /account/sign-out`: ends the session and shows the connections page's sign-in form. */
export async function signOut(c: Context<SandboxEnv>) {
  if (isCrossSitePost(c)) return page(c, 'Sign out', html`<p>${CROSS_SITE_MESSAGE}</p>`, 400)
  await endSession(c)
  return c.redirect(DEFAULT_NEXT, 303)
}
