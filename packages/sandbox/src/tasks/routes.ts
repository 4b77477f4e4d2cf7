import { Hono, type Context } from 'hono'
import { requireAccess } from '../auth/bearer.js'
import type { SandboxEnv } from '../core/state.js'
import { noQuery, readBody, readQuery } from '../http/validate.js'
import { readListsPage, readTasksPage } from './listing.js'
import { createTaskList } from './lists.js'
import { findList, findTask } from './lookup.js'
import { moveTask } from './move.js'
import { taskJson, taskListJson, taskListsPage, tasksPage } from './representation.js'
import {
  createTaskQuery,
  listTaskListsQuery,
  listTasksQuery,
  moveTaskQuery,
  taskBody,
  taskListBody,
} from './schemas.js'
import { clearList, createTask, deleteTask, updateTask, type TaskRef } from './tasks.js'

type Ctx = Context<SandboxEnv>

/** A single resource, with its etag also in the ETag header. */
const resource = (c: Ctx, json: { etag: string }) => c.json(json, 200, { ETag: json.etag })

/** Writes with nothing to return answer 200 with an empty body. */
const done = (c: Ctx) => c.body(null, 200)

const taskRef = (c: Ctx, user: string): TaskRef => ({
  user,
  tasklist: c.req.param('tasklist')!,
  task: c.req.param('task')!,
})

/** Every task call is one of its project's queries of the day (docs/sandbox.md, "Quotas"). */
const TASK_QUOTAS = ['tasksQueriesPerDay'] as const

/**
 * The task API under `S/tasks/v1` (docs/design.md, "The provider's API"): the tool table's
 * endpoints, plus `clear` and a read of one list so a list's selfLink resolves. Reads need
 * tasks.readonly or tasks; writes tasks.
 */
export function taskRoutes() {
  const api = new Hono<SandboxEnv>()
  const url = (c: Ctx) => c.var.dialect.taskLinks

  api.get('/lists', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'read', TASK_QUOTAS)
    const query = readQuery(c, listTaskListsQuery)
    const page = await readListsPage(c.var.sandbox.db, user, query)
    return c.json(taskListsPage(page.items, page.nextPageToken, url(c)))
  })

  api.post('/lists', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    readQuery(c, noQuery)
    const body = await readBody(c, taskListBody, 'TaskList')
    return resource(
      c,
      taskListJson(await createTaskList(c.var.sandbox.db, user, body.title), url(c)),
    )
  })

  api.get('/lists/:tasklist', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'read', TASK_QUOTAS)
    readQuery(c, noQuery)
    return resource(
      c,
      taskListJson(await findList(c.var.sandbox.db, user, c.req.param('tasklist')), url(c)),
    )
  })

  api.post('/lists/:tasklist/clear', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    readQuery(c, noQuery)
    await clearList(c.var.sandbox.db, user, c.req.param('tasklist'))
    return done(c)
  })

  api.get('/lists/:tasklist/tasks', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'read', TASK_QUOTAS)
    const query = readQuery(c, listTasksQuery)
    // One transaction: a page is read from one consistent state of the list.
    const page = await c.var.sandbox.db.transaction().execute(async (trx) => {
      const list = await findList(trx, user, c.req.param('tasklist'))
      return readTasksPage(trx, list, query)
    })
    return c.json(tasksPage(page.items, page.nextPageToken, url(c)))
  })

  api.post('/lists/:tasklist/tasks', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    const query = readQuery(c, createTaskQuery)
    const body = await readBody(c, taskBody, 'Task')
    const task = await createTask(c.var.sandbox.db, user, c.req.param('tasklist'), query, body)
    return resource(c, taskJson(task, url(c)))
  })

  api.get('/lists/:tasklist/tasks/:task', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'read', TASK_QUOTAS)
    readQuery(c, noQuery)
    const { db } = c.var.sandbox
    const ref = taskRef(c, user)
    return resource(
      c,
      taskJson(await findTask(db, await findList(db, user, ref.tasklist), ref.task), url(c)),
    )
  })

  api.patch('/lists/:tasklist/tasks/:task', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    readQuery(c, noQuery)
    const body = await readBody(c, taskBody, 'Task')
    const task = await updateTask(
      c.var.sandbox.db,
      taskRef(c, user),
      body,
      c.req.header('if-match'),
    )
    return resource(c, taskJson(task, url(c)))
  })

  api.delete('/lists/:tasklist/tasks/:task', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    readQuery(c, noQuery)
    await deleteTask(c.var.sandbox.db, taskRef(c, user), c.req.header('if-match'))
    return done(c)
  })

  api.post('/lists/:tasklist/tasks/:task/move', async (c) => {
    const { user } = await requireAccess(c, 'tasks', 'write', TASK_QUOTAS)
    const query = readQuery(c, moveTaskQuery)
    const task = await moveTask(c.var.sandbox.db, taskRef(c, user), query, c.req.header('if-match'))
    return resource(c, taskJson(task, url(c)))
  })

  return api
}
