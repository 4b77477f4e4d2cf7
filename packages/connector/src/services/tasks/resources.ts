import { z } from 'zod'

/**
 * What the provider returns (the task service's resources, docs/design.md, "The tool table"). The
 * fields every answer has are checked strictly; everything else is optional, and objects keep
 * fields not named here, so a provider that adds a field does not break a tool.
 */

/** A link of a task: an email, a chat message, a note... (Task.links). */
export const taskLink = z
  .looseObject({
    type: z.string().describe('What the link points to, such as an email or a chat message.'),
    description: z.string().optional().describe('What the link is about; may be empty.'),
    link: z.string().describe('The URL.'),
  })
  .describe('A link attached to the task.')

/** Where an assigned task comes from (Task.assignmentInfo). */
export const assignmentInfo = z
  .looseObject({
    surfaceType: z
      .string()
      .describe(
        'Where the task was assigned: DOCUMENT or SPACE (also CONTEXT_TYPE_UNSPECIFIED, or a mail surface).',
      ),
    linkToTask: z.string().optional().describe('Link to the original task in that surface.'),
    spaceInfo: z
      .looseObject({ space: z.string().describe('"spaces/{space}"') })
      .optional()
      .describe('The chat space it was assigned from.'),
    driveResourceInfo: z
      .looseObject({
        driveFileId: z.string().describe('The document’s file id.'),
        resourceKey: z.string().optional(),
      })
      .optional()
      .describe('The document it was assigned from.'),
  })
  .describe('Present on a task assigned to the person from a document or a chat space.')

export const task = z
  .looseObject({
    kind: z.literal('tasks#task'),
    id: z.string().describe('The task id.'),
    etag: z.string(),
    title: z.string(),
    status: z.enum(['needsAction', 'completed']).describe('"completed" when done.'),
    updated: z.string().describe('RFC 3339 time of the last change.'),
    notes: z.string().optional(),
    due: z
      .string()
      .optional()
      .describe('The day the task is scheduled, at midnight UTC; the time of day means nothing.'),
    completed: z.string().optional().describe('When it was done; absent when not done.'),
    parent: z.string().optional().describe('The parent task id; absent at the top level.'),
    position: z.string().optional().describe('Sorts the task among its siblings.'),
    hidden: z.boolean().optional().describe('Done and cleared from the list.'),
    deleted: z.boolean().optional(),
    selfLink: z.string().optional(),
    webViewLink: z.string().optional().describe('The task in the web interface.'),
    links: z.array(taskLink).optional(),
    assignmentInfo: assignmentInfo.optional(),
  })
  .describe('A task.')
export type Task = z.output<typeof task>

export const taskList = z
  .looseObject({
    kind: z.literal('tasks#taskList'),
    id: z.string().describe('The task list id.'),
    etag: z.string(),
    title: z.string(),
    updated: z.string().describe('RFC 3339 time of the last change.'),
    selfLink: z.string().optional(),
  })
  .describe('A task list.')
export type TaskList = z.output<typeof taskList>

const nextPageToken = z
  .string()
  .optional()
  .describe('Present when there are more: pass it as pageToken to get the next page.')

/** A page leaves `items` out when it is empty, as the provider's real API does. */
export const tasksPage = z
  .looseObject({
    kind: z.literal('tasks#tasks'),
    etag: z.string(),
    items: z.array(task).optional(),
    nextPageToken,
  })
  .describe('A page of tasks.')

export const taskListsPage = z
  .looseObject({
    kind: z.literal('tasks#taskLists'),
    etag: z.string(),
    items: z.array(taskList).optional(),
    nextPageToken,
  })
  .describe('A page of task lists.')

/**
 * delete_task: the provider answers 200 with no body, yet every tool declares what it returns.
 * A DELETE that succeeds without a body yields its path parameters and `deleted: true` as
 * `structuredContent`: nothing the provider did not say, and enough for a model to name what
 * went (`{"deleted": true, "tasklist": "...", "task": "..."}`).
 */
export const deletedTask = z
  .strictObject({
    deleted: z.literal(true),
    tasklist: z.string().describe('The list the task was in.'),
    task: z.string().describe('The deleted task id.'),
  })
  .describe('The task is deleted, with its subtasks.')
