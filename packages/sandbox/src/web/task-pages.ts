import type { Context } from 'hono'
import { html } from 'hono/html'
import { currentUser } from '../account/session.js'
import { signedInAs, signInPage } from '../account/signed-in.js'
import type { SandboxEnv } from '../core/state.js'
import { completeInWebView } from '../tasks/first-party.js'
import { page } from '../http/page.js'
import { outlineShows, readOutlines, TASKS_SHOWN_PER_LIST } from './outline.js'
import { personAction } from './person-action.js'
import { listsHtml } from './task-html.js'

type Ctx = Context<SandboxEnv>

const ALL = '/web/tasks'
const TITLE = 'Your tasks'

/** `GET /web/tasks`: the signed-in person's lists and tasks. */
export async function showTasks(c: Ctx) {
  const user = await currentUser(c)
  if (!user) return signInPage(c, ALL, 'Sign in to see your task lists and tasks.')
  const outlines = await readOutlines(c.var.sandbox.db, user)
  return page(
    c,
    TITLE,
    html`${signedInAs(user)}
      <h1>${TITLE}</h1>
      <p><a href="/web/sites">Your sites and analytics properties</a></p>
      ${listsHtml(outlines, { links: c.var.dialect.taskLinks })}`,
  )
}

/**
 * `GET /web/tasks/{task}`, a task's webViewLink: the same page with that task highlighted.
 * A task of another user is as unknown as one that never existed.
 */
export async function showTask(c: Ctx) {
  const id = c.req.param('task')!
  const here = `${ALL}/${encodeURIComponent(id)}`
  const user = await currentUser(c)
  if (!user) return signInPage(c, here, 'Sign in to see this task.')
  const { db } = c.var.sandbox
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', user)
    .executeTakeFirst()
  if (!task) return noSuchTask(c, user, id)
  const outlines = await readOutlines(db, user)
  const title = task.title || '(no title)'
  const note = task.deleted
    ? html`<p role="status">
        <strong>This task was deleted:</strong> “${title}” is no longer in your lists.
      </p>`
    : task.hidden
      ? html`<p role="status">
          <strong>This task is hidden:</strong> “${title}” is done, and was marked done on this page
          or cleared from its list. The lists below leave it out, and apps see it only when they ask
          for hidden tasks.
        </p>`
      : outlineShows(outlines, task.id)
        ? html`<p><a href="#task-${task.id}">Go to “${title}”</a></p>`
        : html`<p role="status">
            “${title}” is past the first ${TASKS_SHOWN_PER_LIST.toLocaleString('en-US')} tasks of
            its list, which is as far as this page shows.
          </p>`
  return page(
    c,
    title,
    html`${signedInAs(user)}
      <h1>${TITLE}</h1>
      ${note} ${listsHtml(outlines, { links: c.var.dialect.taskLinks, target: task.id })}`,
  )
}

/**
 * `POST /web/tasks/{task}/complete`, the Done button: completes the task as first-party
 * clients do (done and hidden), then shows it on its own page, which says so.
 */
export async function completeTask(c: Ctx) {
  const id = c.req.param('task')!
  const here = `${ALL}/${encodeURIComponent(id)}`
  return personAction(c, here, async (user) => {
    const outcome = await completeInWebView(c.var.sandbox.db, user, id)
    if (outcome.done || outcome.why === 'deleted') return c.redirect(here, 303)
    return noSuchTask(c, user, id)
  })
}

function noSuchTask(c: Ctx, user: string, id: string) {
  return page(
    c,
    'No such task',
    html`${signedInAs(user)}
      <h1>No such task</h1>
      <p>None of your task lists has a task with the id <code>${id}</code>.</p>
      <p><a href="${ALL}">See all your tasks</a></p>`,
    404,
  )
}
