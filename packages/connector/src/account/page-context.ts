import type { Context } from 'hono'
import { formOrRefusal } from '../auth/form-post.js'
import { CONNECTIONS_PATH, signedInPage, signedOutPage } from '../pages/connections-page.js'
import type { PageStatus } from '../pages/page.js'
import { problemPage } from '../pages/problem-page.js'
import type { NotificationsOffer } from '../pages/devices-section.js'
import { Connections } from './connections.js'
import type { AccountDeps } from './account-deps.js'
import { PersonSessions, type PersonSession } from './sessions.js'
import { SignIn } from './sign-in.js'

/** The subscription post's CSRF subject: the person's session, for this one purpose. */
export const devicesToken = (session: PersonSession) => `push devices ${session.id}`

/** What every route group of `/connections` answers with: the person, their page, a refusal. */
export type AccountPage = ReturnType<typeof accountPage>

export function accountPage(deps: AccountDeps) {
  const { formTokens } = deps
  const sessions = new PersonSessions(deps.store, deps.publicUrl)
  const connections = new Connections(deps)
  const signIn = new SignIn(deps.upstream, formTokens, deps.publicUrl, CONNECTIONS_PATH)

  /** The CSRF token of the signed-in person's forms on the page. */
  const sessionToken = (session: PersonSession) => formTokens.issue(`connections ${session.id}`)
  const sessionTokenIsGood = (session: PersonSession, token: string | null) =>
    formTokens.check(`connections ${session.id}`, token)

  const signedOut = (c: Context, message?: string, status?: PageStatus) =>
    signedOutPage(c, {
      providerName: deps.providerName,
      csrf: signIn.formToken(c),
      message,
      status,
    })

  /** The button that turns notifications on for this device, with its post's token. */
  const notificationsOffer = (session: PersonSession): NotificationsOffer | undefined =>
    deps.push && {
      publicKey: deps.push.publicKey,
      csrf: formTokens.issue(devicesToken(session)),
    }

  async function signedIn(c: Context, session: PersonSession, message?: string) {
    return signedInPage(c, {
      subject: session.subject,
      connections: await connections.of(session.subject),
      csrf: sessionToken(session),
      message: message ?? c.req.query('saved'),
      notifications: notificationsOffer(session),
      devices: deps.push && (await deps.push.devices.list(session.subject)),
    })
  }

  const refused = (c: Context, message: string, status: PageStatus = 400) =>
    problemPage(c, 'Nothing was changed', message, status, {
      href: CONNECTIONS_PATH,
      label: 'Back to your connected assistants',
    })

  /** The form of a post that may act: from this site, readable; else the page that says why. */
  const formOf = (c: Context) => formOrRefusal(c, deps.publicUrl, refused)

  return {
    deps,
    sessions,
    connections,
    signIn,
    sessionTokenIsGood,
    signedOut,
    signedIn,
    notificationsOffer,
    refused,
    formOf,
    /** The words of a refusal every group may give. */
    outOfDate: 'This form is out of date or did not come from this page.',
    signedOutNow: 'You are not signed in, or your session ended.',
    noSuchConnection: 'There is no such connection in your account (it may have ended).',
  }
}
