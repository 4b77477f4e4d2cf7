import type { Context } from 'hono'
import { formOrRefusal } from '../auth/form-post.js'
import { CONNECTIONS_PATH, signedInPage, signedOutPage } from '../pages/connections-page.js'
import type { PageStatus } from '../pages/page.js'
import { problemPage } from '../pages/problem-page.js'
import type { NotificationsOffer } from '../pages/devices-section.js'
import { Connections } from './connections.js'
import type { AccountParts } from './account-parts.js'
import type { PersonSession } from './sessions.js'
import { SignIn } from './sign-in.js'

/** The subscription post's CSRF subject: the person's session, for this one purpose. */
export const devicesToken = (session: PersonSession) => `push devices ${session.id}`

/** What every route group of `/connections` answers with: the person, their page, a refusal. */
export type AccountPage = ReturnType<typeof accountPage>

export function accountPage(parts: AccountParts) {
  const formTokens = parts.forms.connections
  const { sessions } = parts
  const connections = new Connections(parts)
  const signIn = signInFor(parts, CONNECTIONS_PATH)

  /** The CSRF token of the signed-in person's forms on the page. */
  const sessionToken = (session: PersonSession) => formTokens.issue(`connections ${session.id}`)
  const sessionTokenIsGood = (session: PersonSession, token: string | null) =>
    formTokens.check(`connections ${session.id}`, token)

  const signedOut = (c: Context, message?: string, status?: PageStatus) =>
    signedOutPage(c, {
      providerName: parts.providerName,
      csrf: signIn.formToken(c),
      message,
      status,
    })

  async function signedIn(c: Context, session: PersonSession, message?: string) {
    return signedInPage(c, {
      subject: session.subject,
      connections: await connections.of(session.subject),
      csrf: sessionToken(session),
      message: message ?? c.req.query('saved'),
      notifications: notificationsOfferFor(parts, session),
      devices: parts.push && (await parts.push.devices.list(session.subject)),
    })
  }

  const refused = (c: Context, message: string, status: PageStatus = 400) =>
    problemPage(c, 'Nothing was changed', message, status, {
      href: CONNECTIONS_PATH,
      label: 'Back to your connected assistants',
    })

  /** The form of a post that may act: from this site, readable; else the page that says why. */
  const formOf = (c: Context) => formOrRefusal(c, parts.config.publicUrl, refused)

  return {
    parts,
    sessions,
    connections,
    signIn,
    sessionTokenIsGood,
    signedOut,
    signedIn,
    refused,
    formOf,
    /** The words of a refusal every group may give. */
    outOfDate: 'This form is out of date or did not come from this page.',
    signedOutNow: 'You are not signed in, or your session ended.',
    noSuchConnection: 'There is no such connection in your account (it may have ended).',
  }
}

/**
 * The sign-in for a page of the connector (its forms at `pagePath`): through the provider, and
 * back through the callback, which routes.ts's onSignIn finishes there.
 */
export const signInFor = (
  parts: Pick<AccountParts, 'upstream' | 'forms' | 'config'>,
  pagePath: string,
) => new SignIn(parts.upstream, parts.forms.connections, parts.config.publicUrl, pagePath)

/** The button that turns notifications on for this device, with its post's token. */
export const notificationsOfferFor = (
  parts: Pick<AccountParts, 'push' | 'forms'>,
  session: PersonSession,
): NotificationsOffer | undefined =>
  parts.push && {
    publicKey: parts.push.publicKey,
    csrf: parts.forms.connections.issue(devicesToken(session)),
  }
