import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { CALLBACK_PATH } from '../auth/browser-binding.js'
import type { FormTokens } from '../auth/keys.js'
import {
  UpstreamAuthorizationError,
  UpstreamUnavailableError,
  type CompletedSignIn,
} from '../upstream/index.js'

/**
 * Signing in to the connections page through the provider, bound to one browser twice over:
 *
 * - the Sign in form's CSRF token is a MAC of a random nonce kept in a cookie of this browser,
 *   so another site can neither read nor forge it;
 * - pressing Sign in sets a cookie holding a MAC of the `state` sent to the provider, and the
 *   return is accepted only with it: a callback URL from someone else's sign-in, carried to this
 *   browser, cannot sign it in as them (login CSRF).
 */

/** What sign-in needs of the upstream client. */
export interface UpstreamSignIn {
  beginSignIn(returnTo: string): Promise<URL>
  completeSignIn(callbackUrl: URL): Promise<CompletedSignIn>
}

export type SignInReturn =
  { ok: true; signedIn: CompletedSignIn } | { ok: false; status: 400 | 403 | 502; message: string }

const NONCE_COOKIE = 'countersign_sign_in_form'
const BINDING_COOKIE = 'countersign_sign_in'
/** The provider's state is valid 10 minutes. */
const BINDING_MAX_AGE_SECONDS = 15 * 60
const NONCE_MAX_AGE_SECONDS = 60 * 60

export class SignIn {
  readonly #secure: boolean

  constructor(
    private readonly upstream: UpstreamSignIn,
    private readonly formTokens: FormTokens,
    publicUrl: string,
    /** The page the form is on: the nonce cookie is sent to it (and its sign-in action) only. */
    private readonly pagePath: string,
  ) {
    this.#secure = publicUrl.startsWith('https:')
  }

  /** The CSRF token for the Sign in form shown to this browser (setting its nonce if new). */
  formToken(c: Context): string {
    let nonce = getCookie(c, NONCE_COOKIE)
    if (!nonce || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) {
      nonce = randomBytes(16).toString('base64url')
      setCookie(c, NONCE_COOKIE, nonce, {
        path: this.pagePath,
        httpOnly: true,
        secure: this.#secure,
        sameSite: 'Lax',
        maxAge: NONCE_MAX_AGE_SECONDS,
      })
    }
    return this.formTokens.issue(`sign-in form ${nonce}`)
  }

  /** Whether a posted Sign in form carries the token of this browser's nonce. */
  checkFormToken(c: Context, token: unknown): boolean {
    const nonce = getCookie(c, NONCE_COOKIE)
    return nonce !== undefined && this.formTokens.check(`sign-in form ${nonce}`, token)
  }

  /** Sends the browser to the provider, bound to it; the return comes back to `returnTo`. */
  async begin(c: Context, returnTo: string): Promise<URL> {
    const target = await this.upstream.beginSignIn(returnTo)
    const state = target.searchParams.get('state') ?? ''
    setCookie(c, BINDING_COOKIE, this.formTokens.issue(`sign-in ${state}`), {
      path: CALLBACK_PATH,
      httpOnly: true,
      secure: this.#secure,
      sameSite: 'Lax',
      maxAge: BINDING_MAX_AGE_SECONDS,
    })
    return target
  }

  /** The return from the provider: who signed in, if this browser started that sign-in. */
  async complete(c: Context, callbackUrl: URL): Promise<SignInReturn> {
    const states = callbackUrl.searchParams.getAll('state')
    const bound =
      states.length === 1 &&
      this.formTokens.check(`sign-in ${states[0]}`, getCookie(c, BINDING_COOKIE))
    if (!bound) {
      return {
        ok: false,
        status: 403,
        message:
          'This sign-in was started in another browser, so it was not used. Sign in again here.',
      }
    }
    deleteCookie(c, BINDING_COOKIE, { path: CALLBACK_PATH, secure: this.#secure, httpOnly: true })
    try {
      return { ok: true, signedIn: await this.upstream.completeSignIn(callbackUrl) }
    } catch (error) {
      if (error instanceof UpstreamAuthorizationError) {
        return { ok: false, status: 400, message: error.message }
      }
      if (error instanceof UpstreamUnavailableError) {
        return {
          ok: false,
          status: 502,
          message: 'The provider could not be reached to finish signing in. Try again shortly.',
        }
      }
      throw error
    }
  }
}
