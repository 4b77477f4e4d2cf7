import { defineTool, narrowList } from '../definition.js'
import { pageToken } from '../inputs.js'
import {
  describeCreateTask,
  describeCreateTaskList,
  describeDeleteTask,
  describeMoveTask,
  describeUpdateTask,
} from './describe.js'
import {
  LISTS_PAGE,
  maxResults,
  notes,
  restoreOnly,
  status,
  taskId,
  tasklistId,
  taskTitle,
  TASKS_PAGE,
  TIMESTAMP_RANGE,
  timestamp,
} from './inputs.js'
import { flag } from '../inputs.js'
import { deletedTask, task, taskList, taskListsPage, tasksPage } from './resources.js'
import { TASK_TABLE } from './table.js'

/**
 * The task service's eight tools, each from its row of the tool table (TASK_TABLE): the
 * endpoint's parameters and rules, written for the model that calls it, and how a change reads
 * to the person who approves it.
 */

const APPROVED =
  'The person is shown this change and it runs only after they approve it; if they decline, nothing changes.'
const SEEN =
  'If the task changed after the person saw it, nothing changes: read it again and retry.'
const DUE =
  'due is the day the task is scheduled (calendar visibility), not a deadline: only the date is kept and the time of day is dropped.'

/** The read every change of a task makes first: its list, named on the approval. */
const NAME_THE_LIST = { operation: 'get_task_list', what: 'the list, to name it' } as const

const tasklist = tasklistId().describe(
  'Task list id (from list_task_lists), or "@default" for the default list.',
)
const taskRef = taskId('task').describe('Task id (from list_tasks or get_task).')

const dueField = timestamp('due').describe(
  'The day the task is scheduled, as an RFC 3339 timestamp such as 2026-11-25T00:00:00.000Z; only the date is kept.',
)

export const createTask = defineTool(TASK_TABLE.create_task, {
  title: 'Add a task',
  description: [
    'Add a task to a list, optionally with notes and a due day.',
    'It goes first among its siblings, or right after previous (a sibling under the same parent).',
    'parent makes it a subtask: omit it for a top-level task. An assigned task (from a document or chat space) or a repeating task cannot be a parent; assigned tasks cannot be created here.',
    DUE,
    TIMESTAMP_RANGE,
    'Limits: 20,000 visible tasks per list, 100,000 per person, 2,000 subtasks per task.',
    APPROVED,
  ].join(' '),
  input: {
    tasklist,
    parent: taskId('parent')
      .optional()
      .describe(
        'Make the task a subtask of this task (its id). Omit for a top-level task. It must be visible and neither assigned nor repeating.',
      ),
    previous: taskId('previous')
      .optional()
      .describe(
        'Put the task right after this sibling (its id, under the same parent). Omit to put it first.',
      ),
    title: taskTitle().describe('Title, 1 to 1024 characters.'),
    notes: notes().optional().describe('Notes, up to 8192 characters. Omit for none.'),
    status: status()
      .optional()
      .describe('"needsAction" (not done, the default) or "completed" (done).'),
    due: dueField.optional(),
  },
  query: ['parent', 'previous'],
  output: task,
  approval: {
    describe: describeCreateTask,
    reads: [
      NAME_THE_LIST,
      { operation: 'get_task', what: 'the parent, when given, to name it' },
      { operation: 'get_task', what: 'the previous task, when given, to name it' },
    ],
  },
})

export const createTaskList = defineTool(TASK_TABLE.create_task_list, {
  title: 'Create a task list',
  description: [
    'Create a task list. A person can have at most 2000 lists.',
    'Use the returned id as tasklist in the other tools.',
    APPROVED,
  ].join(' '),
  input: {
    title: taskTitle('the list title').describe('Title of the list, 1 to 1024 characters.'),
  },
  query: [],
  output: taskList,
  approval: { describe: describeCreateTaskList, reads: [] },
  made: (answer) => String(answer.id),
})

export const deleteTask = defineTool(TASK_TABLE.delete_task, {
  title: 'Delete a task',
  description: [
    'Delete a task. Its subtasks are deleted with it.',
    'Deleting a task assigned from a document or chat space also deletes the original there.',
    'Deleting an already deleted task succeeds. A deleted task stays readable with get_task (deleted: true) and update_task with deleted: false restores it.',
    'The person approves each deletion on the connector’s own page (they may be sent a link); it runs only after they approve.',
    SEEN,
  ].join(' '),
  input: { tasklist, task: taskRef },
  query: [],
  output: deletedTask,
  // The provider answers 204: the result names what went.
  answerWithoutBody: ({ tasklist, task }) => ({ deleted: true, tasklist, task }),
  approval: {
    describe: describeDeleteTask,
    existing: 'get_task',
    reads: [
      NAME_THE_LIST,
      { operation: 'get_task', what: 'the task: its title, due day and status, and its etag' },
    ],
  },
})

export const getTask = defineTool(TASK_TABLE.get_task, {
  title: 'Read a task',
  description: [
    'Read one task: title, notes, status, due day, completion time, parent, position, links, and for an assigned task where it came from.',
    'Deleted tasks are readable too, with deleted: true.',
    'due is the scheduled day (at midnight UTC), not a deadline.',
  ].join(' '),
  input: { tasklist, task: taskRef },
  query: [],
  output: task,
})

export const listTaskLists = defineTool(TASK_TABLE.list_task_lists, {
  title: 'List task lists',
  description: [
    'List the person’s task lists, a page at a time.',
    'When the answer has nextPageToken, pass it as pageToken to get the next page.',
    'A list’s id is the tasklist of the other tools; "@default" also names the default list.',
  ].join(' '),
  input: {
    maxResults: maxResults(LISTS_PAGE)
      .optional()
      .describe('Lists per page, 1 to 1000 (default 1000).'),
    pageToken: pageToken()
      .optional()
      .describe('The nextPageToken of the previous page; omit for the first page.'),
  },
  query: ['maxResults', 'pageToken'],
  output: taskListsPage,
  narrow: narrowList('items', 'id'),
})

const bound = (field: string, what: string) =>
  timestamp(field).optional().describe(`Only tasks ${what} (RFC 3339, inclusive).`)

export const listTasks = defineTool(TASK_TABLE.list_tasks, {
  title: 'List tasks',
  description: [
    'List the tasks of one list, a page at a time: top-level tasks in order, each followed by its subtasks.',
    'When the answer has nextPageToken, pass it as pageToken (with the same filters) to get the next page.',
    'By default completed tasks are included, but hidden, deleted and assigned tasks are not: tasks completed in first-party apps (web, mobile) are hidden, so set showHidden too to see them; set showAssigned for tasks assigned from a document or chat space.',
    'A due value is a day at midnight UTC: to find tasks due on 25 Nov 2026, use dueMin 2026-11-25T00:00:00Z and dueMax 2026-11-25T23:59:59Z.',
    TIMESTAMP_RANGE,
  ].join(' '),
  input: {
    tasklist,
    maxResults: maxResults(TASKS_PAGE)
      .optional()
      .describe('Tasks per page, 1 to 100 (default 20).'),
    pageToken: pageToken()
      .optional()
      .describe('The nextPageToken of the previous page; omit for the first page.'),
    dueMin: bound('dueMin', 'due on or after this time'),
    dueMax: bound('dueMax', 'due on or before this time'),
    completedMin: bound('completedMin', 'completed at or after this time'),
    completedMax: bound('completedMax', 'completed at or before this time'),
    updatedMin: bound('updatedMin', 'changed at or after this time'),
    showCompleted: flag('showCompleted')
      .optional()
      .describe(
        'Include completed tasks (default true). Those completed in first-party apps also need showHidden.',
      ),
    showHidden: flag('showHidden')
      .optional()
      .describe('Include hidden tasks: completed ones cleared from the list (default false).'),
    showDeleted: flag('showDeleted').optional().describe('Include deleted tasks (default false).'),
    showAssigned: flag('showAssigned')
      .optional()
      .describe(
        'Include tasks assigned to the person from a document or chat space (default false).',
      ),
  },
  query: [
    'maxResults',
    'pageToken',
    'dueMin',
    'dueMax',
    'completedMin',
    'completedMax',
    'updatedMin',
    'showCompleted',
    'showHidden',
    'showDeleted',
    'showAssigned',
  ],
  output: tasksPage,
})

export const moveTask = defineTool(TASK_TABLE.move_task, {
  title: 'Move a task',
  description: [
    'Move a task within its list, under another task, or to another list; its subtasks move with it.',
    'It goes under parent (omit for the top level), right after previous (omit for the first position), in destinationTasklist (omit to stay in the list).',
    'parent and previous must be visible tasks of the list it goes to; previous must be under the same parent.',
    'Assigned and repeating tasks cannot be parents or be moved under a parent; recurring tasks cannot move to another list; a completed and hidden task can only go first at the top level (omit parent and previous). A task cannot go under itself or its own subtask.',
    APPROVED,
    SEEN,
  ].join(' '),
  input: {
    tasklist: tasklistId().describe('The list the task is in now (or "@default").'),
    task: taskRef,
    destinationTasklist: tasklistId('destinationTasklist')
      .optional()
      .describe(
        'Move the task to this list (its id). Omit to move within its list. Recurring tasks cannot change lists.',
      ),
    previous: taskId('previous')
      .optional()
      .describe(
        'The sibling the task should follow (its id), under the new parent. Omit for the first position.',
      ),
    parent: taskId('parent')
      .optional()
      .describe('The new parent task (its id). Omit for the top level.'),
  },
  query: ['destinationTasklist', 'previous', 'parent'],
  output: task,
  approval: {
    describe: describeMoveTask,
    existing: 'get_task',
    reads: [
      NAME_THE_LIST,
      { operation: 'get_task', what: 'the task: its title and place, and its etag' },
      { operation: 'get_task_list', what: 'the destination list, when given, to name it' },
      { operation: 'get_task', what: 'the new parent, when given, to name it' },
      { operation: 'get_task', what: 'the new previous task, when given, to name it' },
      {
        operation: 'get_task',
        what: 'the task’s parent now, when it has one, to say where it was',
      },
    ],
  },
})

const CHANGES = ['title', 'notes', 'status', 'due', 'completed', 'deleted'] as const

export const updateTask = defineTool(TASK_TABLE.update_task, {
  title: 'Change a task',
  description: [
    'Change a task or mark it done. Only the fields given change; the others keep their value.',
    'status "completed" marks it done (completed is set to now unless given); "needsAction" reopens it and removes completed.',
    'notes null (or "") removes the notes, due null removes the due day.',
    DUE,
    TIMESTAMP_RANGE,
    'deleted: false restores a deleted task with the subtasks deleted with it; to delete a task use delete_task.',
    'A task assigned from a document cannot have notes. To change its parent or position use move_task.',
    APPROVED,
    SEEN,
  ].join(' '),
  input: {
    tasklist,
    task: taskRef,
    title: taskTitle().optional().describe('New title, 1 to 1024 characters.'),
    notes: notes()
      .nullable()
      .optional()
      .describe('New notes, up to 8192 characters; null or "" removes them.'),
    status: status()
      .optional()
      .describe('"completed" marks the task done, "needsAction" marks it not done.'),
    due: dueField.nullable().optional().describe(`New due day; null removes it. ${DUE}`),
    completed: timestamp('completed')
      .optional()
      .describe('When the task was done (RFC 3339); only kept when the task is done.'),
    deleted: restoreOnly().optional().describe('false restores a deleted task.'),
  },
  check: (args, ctx) => {
    if (!CHANGES.some((field) => args[field] !== undefined))
      ctx.addIssue({
        code: 'custom',
        message: `update_task needs something to change: give at least one of ${CHANGES.join(', ')}`,
      })
  },
  // tasklist and task, and at least one change: every other field is one.
  checkInSchema: { minProperties: 3 },
  query: [],
  output: task,
  approval: {
    describe: describeUpdateTask,
    existing: 'get_task',
    reads: [
      NAME_THE_LIST,
      { operation: 'get_task', what: 'the task: each field before the change, and its etag' },
    ],
  },
})
