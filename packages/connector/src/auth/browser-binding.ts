import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { CALLBACK_PATH } from '../upstream/index.js'
import type { FormTokens } from './keys.js'

/**
 * The return from the provider, bound to the browser that pressed Allow: a cookie per
 * authorization, holding a MAC of its uid, sent only to the callback's path. A callback URL
 * carried to another browser finds no such cookie there, and connects nothing.
 */

export { CALLBACK_PATH }

/** How long the browser binding lasts: the provider's state is valid for 10 minutes. */
const BINDING_MAX_AGE_SECONDS = 15 * 60
const BINDING_COOKIE_PREFIX = 'countersign_authorization_'

const secure = (publicUrl: string) => publicUrl.startsWith('https:')

/** Pressing Allow in this browser: its return from the provider will be accepted here. */
export function bindBrowser(c: Context, formTokens: FormTokens, publicUrl: string, uid: string) {
  setCookie(c, BINDING_COOKIE_PREFIX + uid, formTokens.issue(`browser ${uid}`), {
    path: CALLBACK_PATH,
    httpOnly: true,
    secure: secure(publicUrl),
    sameSite: 'Lax',
    maxAge: BINDING_MAX_AGE_SECONDS,
  })
}

/** The interactions this browser pressed Allow in (valid binding cookies). */
export function boundInteractions(c: Context, formTokens: FormTokens): string[] {
  return Object.entries(getCookie(c))
    .filter(([name]) => name.startsWith(BINDING_COOKIE_PREFIX))
    .map(([name, value]) => [name.slice(BINDING_COOKIE_PREFIX.length), value] as const)
    .filter(([uid, value]) => formTokens.check(`browser ${uid}`, value))
    .map(([uid]) => uid)
}

/** The binding of `uid`, once its return is handled. */
export function forgetBinding(c: Context, publicUrl: string, uid: string) {
  deleteCookie(c, BINDING_COOKIE_PREFIX + uid, {
    path: CALLBACK_PATH,
    secure: secure(publicUrl),
    httpOnly: true,
  })
}
