import { z } from 'zod'
import { decodeListCursor, decodeTaskCursor } from './page-tokens.js'
import { parseTimestamp } from './timestamps.js'

/** The task service's limits on fields and page sizes. */
export const TITLE_MAX = 1024
const NOTES_MAX = 8192
const TASKS_PAGE = { default: 20, max: 100 }
const LISTS_PAGE = { default: 1000, max: 1000 }

/** Length in characters (code points), as a person would count them, not UTF-16 units. */
export function codePoints(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

const text = (max: number) =>
  z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const length = codePoints(value)
    if (length > max)
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${max} characters; it has ${length}`,
      })
  })

const timestamp = z.string({ error: 'must be a string' }).transform((value, ctx) => {
  const parsed = parseTimestamp(value)
  if (parsed) return parsed
  ctx.addIssue({
    code: 'custom',
    message: `must be an RFC 3339 timestamp with a real calendar date, such as 2026-05-01T00:00:00.000Z; got "${value.slice(0, 40)}"`,
  })
  return z.NEVER
})

/** Read-only fields a client may send back unchanged: accepted and ignored. */
const ignored = z.unknown().optional()

export const taskBody = z.object({
  id: ignored,
  etag: ignored,
  kind: ignored,
  updated: ignored,
  selfLink: ignored,
  webViewLink: ignored,
  links: ignored,
  hidden: ignored,
  position: ignored,
  parent: ignored,
  assignmentInfo: ignored,
  title: text(TITLE_MAX).optional(),
  // null clears a field in a PATCH; in a create it is the same as leaving the field out.
  notes: text(NOTES_MAX).nullable().optional(),
  status: z
    .enum(['needsAction', 'completed'], { error: 'must be "needsAction" or "completed"' })
    .optional(),
  due: timestamp.nullable().optional(),
  completed: timestamp.nullable().optional(),
  deleted: z.boolean({ error: 'must be true or false' }).optional(),
})
export type TaskBody = z.output<typeof taskBody>

export const taskListBody = z.object({
  id: ignored,
  etag: ignored,
  kind: ignored,
  updated: ignored,
  selfLink: ignored,
  title: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'a task list needs a title' : 'must be a string',
    })
    .min(1, { error: 'must not be empty: a task list needs a title' })
    .pipe(text(TITLE_MAX)),
})

const pageSize = ({ default: fallback, max }: { default: number; max: number }) =>
  z
    .string()
    .regex(/^[+-]?\d+$/, { error: `must be an integer from 1 to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: `must be from 1 to ${max}` })
        .max(max, { error: `must be at most ${max} (larger values are rejected, not clamped)` }),
    )
    .default(fallback)

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(fallback)

const badToken = 'is not a page token of this call: pass the nextPageToken of the previous page'

/** An optional task or list id in a query string; an empty value is the same as none. */
const optionalId = z
  .string()
  .transform((value) => value || undefined)
  .optional()

export const listTaskListsQuery = z.object({
  maxResults: pageSize(LISTS_PAGE),
  pageToken: z
    .string()
    .transform((token, ctx) => {
      const seq = decodeListCursor(token)
      if (seq !== undefined) return seq
      ctx.addIssue({ code: 'custom', message: badToken })
      return z.NEVER
    })
    .optional(),
})

export const listTasksQuery = z.object({
  maxResults: pageSize(TASKS_PAGE),
  pageToken: z
    .string()
    .transform((token, ctx) => {
      const cursor = decodeTaskCursor(token)
      if (cursor) return cursor
      ctx.addIssue({ code: 'custom', message: badToken })
      return z.NEVER
    })
    .optional(),
  dueMin: timestamp.optional(),
  dueMax: timestamp.optional(),
  completedMin: timestamp.optional(),
  completedMax: timestamp.optional(),
  updatedMin: timestamp.optional(),
  showCompleted: flag(true),
  showHidden: flag(false),
  showDeleted: flag(false),
  showAssigned: flag(false),
})
export type ListTasksQuery = z.output<typeof listTasksQuery>

export const createTaskQuery = z.object({ parent: optionalId, previous: optionalId })

export const moveTaskQuery = z.object({
  destinationTasklist: optionalId,
  parent: optionalId,
  previous: optionalId,
})
export type MoveTaskQuery = z.output<typeof moveTaskQuery>
