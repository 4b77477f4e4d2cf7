import type { Context } from 'hono'
import { html } from 'hono/html'
import { currentUser } from '../account/session.js'
import { signedInAs, signInPage } from '../account/signed-in.js'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'
import { assignedTaskOf, unassign } from '../tasks/first-party.js'
import type { SurfaceType } from '../tasks/rows.js'
import { personAction } from './person-action.js'

/**
 * `/web/surfaces/{id}`, an assigned task's linkToTask: a stand-in for the original task in its
 * source surface (a document or a chat space), which can unassign it. Like the rest of the web
 * view it is the signed-in person's own; another user's item is as unknown as one that never
 * existed.
 */

type Ctx = Context<SandboxEnv>

const SURFACE = { DOCUMENT: 'document', SPACE: 'space' } as const
const SURFACE_IN_WORDS = { DOCUMENT: 'a document', SPACE: 'a chat space' } as const

const hereOf = (id: string) => `/web/surfaces/${encodeURIComponent(id)}`

/** `GET /web/surfaces/{id}`: the original, and whether it is still assigned to the person. */
export async function showSurfaceItem(c: Ctx) {
  const id = c.req.param('id')!
  const user = await currentUser(c)
  if (!user) return signInPage(c, hereOf(id), 'Sign in to see this assigned task.')
  const { db } = c.var.sandbox
  const item = await db
    .selectFrom('surface_items')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', user)
    .executeTakeFirst()
  if (!item) return noSuchItem(c, user, id)
  if (item.deleted) return deletedItem(c, user, item)
  const assigned = await assignedTaskOf(db, user, item.id)
  const surface = SURFACE[item.surface_type]
  const state =
    assigned && !assigned.deleted
      ? html`<p>It is assigned to you, so it is also in your task lists.</p>
          <form method="post" action="${hereOf(id)}/unassign">
            <button>Unassign</button>
            <small>Removes the task from your task lists; it stays in this ${surface}.</small>
          </form>`
      : html`<p role="status">
          <strong>Not assigned to you any more:</strong> it stays in this ${surface}, and your task
          lists no longer have it.
        </p>`
  return page(
    c,
    item.title || 'Assigned task',
    html`${signedInAs(user)}
      <h1>A task in ${SURFACE_IN_WORDS[item.surface_type]}</h1>
      <p>
        This stands in for the original of an assigned task, in the ${surface} it was assigned from
        (surface type <code>${item.surface_type}</code>).
      </p>
      <p class="task"><strong>${item.title || '(no title)'}</strong></p>
      ${state}
      <p><a href="/web/tasks">See all your tasks</a></p>`,
  )
}

/**
 * `POST /web/surfaces/{id}/unassign`: removes the assigned task alone; the original stays.
 * (delete_task, by contrast, deletes both.)
 */
export async function unassignSurfaceItem(c: Ctx) {
  const id = c.req.param('id')!
  return personAction(c, hereOf(id), async (user) => {
    const outcome = await unassign(c.var.sandbox.db, user, id)
    if (outcome.done || outcome.why === 'deleted') return c.redirect(hereOf(id), 303)
    return noSuchItem(c, user, id)
  })
}

function noSuchItem(c: Ctx, user: string, id: string) {
  return page(
    c,
    'No such task',
    html`${signedInAs(user)}
      <h1>No such task</h1>
      <p>No document or chat space of yours has a task with the id <code>${id}</code>.</p>`,
    404,
  )
}

function deletedItem(c: Ctx, user: string, item: { surface_type: SurfaceType; title: string }) {
  const heading = `This task was deleted in its ${SURFACE[item.surface_type]}`
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
