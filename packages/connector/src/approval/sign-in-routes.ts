import type { Context, Hono } from 'hono'
import type { SignIn } from '../account/sign-in.js'
import { formOrRefusal } from '../auth/form-post.js'
import { ACTIVITY_PATH } from '../pages/activity-page.js'
import { APPROVALS_PATH, approvalPath } from '../pages/approvals-page.js'
import type { PageStatus } from '../pages/page.js'
import { signInPage } from '../pages/sign-in-page.js'
import { notFound, refused } from './answers.js'
import { isApprovalId } from './digest.js'
import { signInFor } from '../account/page-context.js'
import type { ApprovalPagesParts } from './pages-parts.js'

/**
 * Signing in to the approval and activity pages, through the connections page's sign-in:
 *
 *   POST /approvals/sign-in, /approvals/{id}/sign-in, /activity/sign-in
 *                                 off to the provider, and back to the page
 */

/** A page behind a sign-in: where its form posts, what it is, and its sign-in. */
export interface SignInPage {
  action: string
  heading: string
  signIn: SignIn
}

export interface ApprovalSignIns {
  list: SignInPage
  change(id: string): SignInPage
  activity: SignInPage
}

export function approvalSignIns(
  parts: Pick<ApprovalPagesParts, 'upstream' | 'forms' | 'config'>,
): ApprovalSignIns {
  const approvals = signInFor(parts, APPROVALS_PATH)
  const activity = signInFor(parts, ACTIVITY_PATH)
  return {
    list: {
      action: `${APPROVALS_PATH}/sign-in`,
      heading: 'Changes waiting for your approval',
      signIn: approvals,
    },
    change: (id) => ({
      action: `${approvalPath(id)}/sign-in`,
      heading: 'An assistant asks to make a change in your account',
      signIn: approvals,
    }),
    activity: {
      action: `${ACTIVITY_PATH}/sign-in`,
      heading: 'What your assistants changed',
      signIn: activity,
    },
  }
}

/** The sign-in in front of `page`, with what went wrong, if anything. */
export const signedOut = (
  parts: Pick<ApprovalPagesParts, 'providerName'>,
  c: Context,
  page: SignInPage,
  message?: string,
  status?: PageStatus,
) =>
  signInPage(c, {
    action: page.action,
    heading: page.heading,
    providerName: parts.providerName,
    csrf: page.signIn.formToken(c),
    message,
    status,
  })

export function signInRoutes(app: Hono, parts: ApprovalPagesParts, signIns: ApprovalSignIns) {
  /**
   * A sign-in form's post: off to the provider, and back to the page. `target` says which page,
   * or undefined for a path that names none.
   */
  const signInRoute = (
    path: string,
    target: (c: Context) => { page: SignInPage; returnTo: string } | undefined,
  ) =>
    app.post(path, async (c) => {
      const form = await formOrRefusal(c, parts.config.publicUrl, refused)
      if (form instanceof Response) return form
      const to = target(c)
      if (!to) return notFound(c)
      if (!to.page.signIn.checkFormToken(c, form.get('csrf'))) {
        return signedOut(parts, c, to.page, 'This form is out of date. Press Sign in again.', 400)
      }
      return c.redirect((await to.page.signIn.begin(c, to.returnTo)).toString(), 303)
    })

  signInRoute(`${APPROVALS_PATH}/sign-in`, () => ({ page: signIns.list, returnTo: APPROVALS_PATH }))
  signInRoute(`${APPROVALS_PATH}/:id/sign-in`, (c) => {
    const id = c.req.param('id') ?? ''
    return isApprovalId(id) ? { page: signIns.change(id), returnTo: approvalPath(id) } : undefined
  })
  signInRoute(`${ACTIVITY_PATH}/sign-in`, () => ({
    page: signIns.activity,
    returnTo: ACTIVITY_PATH,
  }))
}
