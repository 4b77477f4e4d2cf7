import { z } from 'zod'
import { atMostCharacters, characters, requiredString } from '../inputs.js'
import { parseTimestamp } from '../timestamps.js'

/**
 * The pieces the task tools' inputs are made of, with the task service's limits. Every message
 * names the field and says what to change, because a model reads it and tries again. No piece
 * transforms its value: what the model sends is what the provider gets, and the JSON Schema shown
 * to the model is exactly what validates.
 */

/** The task service's limits (docs/design.md, "The tool table"). */
export const TITLE_MAX = 1024
export const NOTES_MAX = 8192
export const TASKS_PAGE = { default: 20, max: 100 }
export const LISTS_PAGE = { default: 1000, max: 1000 }
/** Not the provider's: ids are short; this only keeps a hostile value off the path. */
const ID_MAX = 256

/** Text of at most `max` characters; `min` 1 refuses an empty value. */
const text = (field: string, what: string, { min, max }: { min: 0 | 1; max: number }) =>
  requiredString(field, what)
    .superRefine((value, ctx) => {
      const length = characters(value)
      if (length < min) ctx.addIssue({ code: 'custom', message: `${field} must not be empty` })
      if (length > max)
        ctx.addIssue({
          code: 'custom',
          message: `${field} must be at most ${max} characters; it has ${length}: shorten it`,
        })
    })
    .meta({ minLength: min, maxLength: max })

/**
 * An identifier that is one path segment or one query value. `.` and `..` are refused: a URL
 * would read them as "this folder" and "the folder above", sending the call somewhere else.
 * Neither, nor text with a control character, is an id the provider gives, which is what the
 * fields' descriptions ask for ("from list_tasks"): refused as not one.
 */
const identifier = (field: string, what: string, hint: string) =>
  atMostCharacters(
    requiredString(field, what).min(1, { error: `${field} must not be empty: ${hint}` }),
    ID_MAX,
    `${field} must be at most ${ID_MAX} characters: ${hint}`,
  )
    .refine((value) => value !== '.' && value !== '..', {
      error: `${field} cannot be "." or "..": ${hint}`,
    })
    .refine((value) => !/\p{Cc}/u.test(value), {
      error: `${field} cannot contain control characters: ${hint}`,
    })

export const tasklistId = (field = 'tasklist') =>
  identifier(
    field,
    'a task list id',
    'give a task list id from list_task_lists, or "@default" for the default list',
  )

export const taskId = (field: string) =>
  identifier(field, 'a task id', 'give a task id from list_tasks or get_task')

/**
 * What JSON Schema's date-time (RFC 3339) admits and Google's timestamps do not: the tools'
 * descriptions say it, as the listing's keywords cannot.
 */
export const TIMESTAMP_RANGE =
  'Timestamps are RFC 3339 within Google’s range: years 1 to 9999, no leap second, at most 9 decimals.'

/** An RFC 3339 timestamp with a real date and an explicit offset or Z, in Google's range. */
export const timestamp = (field: string) =>
  requiredString(field, 'an RFC 3339 timestamp')
    .refine((value) => parseTimestamp(value) !== undefined, {
      error: (issue) =>
        `${field} must be an RFC 3339 timestamp with a real date and a time zone, in the years 1 to 9999 (no leap second, at most 9 decimals), such as 2026-11-25T00:00:00.000Z; got "${String(issue.input).slice(0, 40)}"`,
    })
    .meta({ format: 'date-time' })

export const taskTitle = (what = 'the task title') =>
  text('title', what, { min: 1, max: TITLE_MAX })

export const notes = () => text('notes', 'the notes', { min: 0, max: NOTES_MAX })

export const status = () =>
  z.enum(['needsAction', 'completed'], {
    error: 'status must be "needsAction" (not done) or "completed" (done)',
  })

/** A page size from 1 to `max`; larger values are refused, not clamped. */
export const maxResults = ({ max }: { max: number }) =>
  z
    .number({ error: `maxResults must be a whole number from 1 to ${max}` })
    .int({ error: `maxResults must be a whole number from 1 to ${max}` })
    .min(1, { error: `maxResults must be at least 1` })
    .max(max, { error: `maxResults must be at most ${max}: ask for ${max} or fewer` })

/**
 * update_task's `deleted` restores only. Deleting is delete_task's, which the person approves on
 * the connector's own page (access mode per-call): a PATCH with `deleted: true` would delete on
 * the weaker auth-token approval.
 */
export const restoreOnly = () =>
  z.literal(false, {
    error:
      'deleted can only be false here, which restores a deleted task: to delete a task, call delete_task',
  })
