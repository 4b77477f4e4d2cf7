import type { Context } from 'hono'
import { html } from 'hono/html'
import { currentUser } from '../account/session.js'
import { signedInAs, signInPage } from '../account/signed-in.js'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'

/**
 * `GET /web/surfaces/{id}`, an assigned task's linkToTask: a stand-in for the original task in
 * its source surface (a document or a chat space). Like the rest of the web view it is the
 * signed-in person's own; another user's item is as unknown as one that never existed.
 */

const SURFACE = { DOCUMENT: 'document', SPACE: 'space' } as const
const SURFACE_IN_WORDS = { DOCUMENT: 'a document', SPACE: 'a chat space' } as const

export async function showSurfaceItem(c: Context<SandboxEnv>) {
  const id = c.req.param('id')!
  const user = await currentUser(c)
  if (!user)
    return signInPage(
      c,
      `/web/surfaces/${encodeURIComponent(id)}`,
      'Sign in to see this assigned task.',
    )
  const item = await c.var.sandbox.db
    .selectFrom('surface_items')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', user)
    .executeTakeFirst()
  if (!item) {
    return page(
      c,
      'No such task',
      html`${signedInAs(user)}
        <h1>No such task</h1>
        <p>No document or chat space of yours has a task with the id <code>${id}</code>.</p>`,
      404,
    )
  }
  const heading = `This task was deleted in its ${SURFACE[item.surface_type]}`
  if (item.deleted) {
    return page(
      c,
      heading,
      html`${signedInAs(user)}
        <h1>${heading}</h1>
        <p>
          “${item.title}” was assigned from ${SURFACE_IN_WORDS[item.surface_type]}, and deleting the
          assigned task deleted this original too.
        </p>`,
      410,
    )
  }
  return page(
    c,
    item.title || 'Assigned task',
    html`${signedInAs(user)}
      <h1>A task in ${SURFACE_IN_WORDS[item.surface_type]}</h1>
      <p>
        This stands in for the original of an assigned task, in the ${SURFACE[item.surface_type]} it
        was assigned from (surface type
        <code>${item.surface_type}</code>).
      </p>
      <p class="task"><strong>${item.title || '(no title)'}</strong></p>
      <p><a href="/web/tasks">See all your tasks</a></p>`,
  )
}
