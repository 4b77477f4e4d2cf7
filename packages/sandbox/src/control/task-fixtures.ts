import { Hono } from 'hono'
import { z } from 'zod'
import { ensureUser, userName } from '../account/users.js'
import type { SandboxEnv } from '../core/state.js'
import { readJsonObject } from '../http/body.js'
import { parseOrInvalid } from '../http/validate.js'
import { createAssignedTask, markRecurring } from '../tasks/assigned.js'
import { taskJson } from '../tasks/representation.js'
import { codePoints, TITLE_MAX } from '../tasks/schemas.js'

const tasklist = z.string().min(1, 'give a task list id or @default')

const assignedTaskRequest = z
  .object({
    user: userName,
    tasklist,
    title: z
      .string()
      .refine((t) => codePoints(t) <= TITLE_MAX, `title must be at most ${TITLE_MAX} characters`),
    surfaceType: z.enum(['DOCUMENT', 'SPACE']),
  })
  .strict()

const recurringRequest = z
  .object({ user: userName, tasklist, task: z.string().min(1, 'give a task id') })
  .strict()

/**
 * Control calls that make the tasks the task API cannot: assigned tasks (from a document or a
 * chat space) and recurring ones. Each answers with the Task as the API would read it.
 */
export function taskFixtureRoutes() {
  const fixtures = new Hono<SandboxEnv>()

  fixtures.post('/assigned-tasks', async (c) => {
    const { db } = c.var.sandbox
    const req = parseOrInvalid(assignedTaskRequest, await readJsonObject(c))
    await ensureUser(db, req.user)
    return c.json(taskJson(await createAssignedTask(db, req), c.var.dialect.taskLinks))
  })

  fixtures.post('/recurring', async (c) => {
    const { db } = c.var.sandbox
    const req = parseOrInvalid(recurringRequest, await readJsonObject(c))
    await ensureUser(db, req.user)
    return c.json(taskJson(await markRecurring(db, req), c.var.dialect.taskLinks))
  })

  return fixtures
}
