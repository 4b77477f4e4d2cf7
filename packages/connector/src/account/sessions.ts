import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Store } from '../store/open.js'

/**
 * The person's session on the connector's own pages, started by a sign-in through the provider.
 * The cookie holds 32 random bytes; the store holds only their SHA-256, so a copy of the database
 * signs nobody in. A session lasts 12 hours, whatever is done with it, and ends at sign-out.
 */

const SESSION_TTL_MS = 12 * 60 * 60_000

export interface PersonSession {
  /** The person: their subject at the provider. */
  subject: string
  /** The stored digest: what the session's forms are bound to (never the cookie's value). */
  id: string
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex')

export class PersonSessions {
  /** `__Host-` on https: the cookie is then Secure, for this host only, on every path. */
  readonly cookieName: string
  readonly #secure: boolean

  constructor(
    private readonly store: Store,
    publicUrl: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#secure = publicUrl.startsWith('https:')
    this.cookieName = this.#secure ? '__Host-countersign_session' : 'countersign_session'
  }

  /** The signed-in person of this request, if its cookie names a live session. */
  async current(c: Context): Promise<PersonSession | undefined> {
    const value = getCookie(c, this.cookieName)
    if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined
    const id = digest(value)
    const row = await this.store.db
      .selectFrom('person_sessions')
      .select('subject')
      .where('id', '=', id)
      .where('expires_at', '>', this.now())
      .executeTakeFirst()
    return row && { subject: row.subject, id }
  }

  /** Starts a session for `subject` and sets its cookie; any session the browser had ends. */
  async start(c: Context, subject: string): Promise<void> {
    await this.end(c)
    const now = this.now()
    await this.store.db.deleteFrom('person_sessions').where('expires_at', '<=', now).execute()
    const value = randomBytes(32).toString('base64url')
    await this.store.db
      .insertInto('person_sessions')
      .values({ id: digest(value), subject, created_at: now, expires_at: now + SESSION_TTL_MS })
      .execute()
    setCookie(c, this.cookieName, value, {
      path: '/',
      httpOnly: true,
      secure: this.#secure,
      sameSite: 'Lax',
      maxAge: SESSION_TTL_MS / 1000,
    })
  }

  /** Ends this browser's session, if any, and clears its cookie. */
  async end(c: Context): Promise<void> {
    const value = getCookie(c, this.cookieName)
    if (value === undefined) return
    await this.store.db.deleteFrom('person_sessions').where('id', '=', digest(value)).execute()
    deleteCookie(c, this.cookieName, { path: '/', secure: this.#secure, httpOnly: true })
  }
}
