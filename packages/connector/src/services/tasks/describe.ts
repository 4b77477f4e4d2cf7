import {
  readResource,
  type ChangeDescription,
  type ChangeDetail,
  type ProviderRead,
  type ProviderReader,
} from '../definition.js'
import {
  task as taskSchema,
  taskList as taskListSchema,
  type Task,
  type TaskList,
} from './resources.js'
import { dueDay, moment, notesPreview, quoted, statusWord } from '../wording.js'

/**
 * How each change of the task service reads to the person who approves it (docs/design.md,
 * "Approval of changes"). The task and the list are named by title, read from the provider just
 * before asking; an existing task's etag goes along as `ifMatch`, so the change is made only to the
 * task the person saw.
 */

/**
 * The generic provider's read of one list ("upstream only, no tool"): it names the list a change is
 * in.
 */
export const getTaskList: ProviderRead = {
  service: 'tasks',
  name: 'get_task_list',
  method: 'GET',
  path: '/lists/{tasklist}',
}

type Status = 'needsAction' | 'completed'

const readList = (provider: ProviderReader, tasklist: string): Promise<TaskList> =>
  readResource(provider, taskListSchema, 'a task list', getTaskList.name, { tasklist })

const readTask = (provider: ProviderReader, tasklist: string, task: string): Promise<Task> =>
  readResource(provider, taskSchema, 'a task', 'get_task', { tasklist, task })

const detail = (label: string, value: string, before?: string): ChangeDetail =>
  before === undefined ? { label, value } : { label, value, before }

/** Where a created or moved task goes among its siblings. */
const placeOf = (parent: Task | undefined, previous: Task | undefined) =>
  previous
    ? `after ${quoted(previous.title)}`
    : parent
      ? `first subtask of ${quoted(parent.title)}`
      : 'first in the list'

const surfaceOf = (t: Task) =>
  t.assignmentInfo?.surfaceType === 'SPACE'
    ? 'chat space'
    : t.assignmentInfo?.surfaceType === 'DOCUMENT'
      ? 'document'
      : 'place'

export async function describeCreateTaskList(args: { title: string }): Promise<ChangeDescription> {
  return {
    summary: `Create task list ${quoted(args.title)}?`,
    details: [detail('Title', quoted(args.title))],
  }
}

export async function describeCreateTask(
  args: {
    tasklist: string
    parent?: string
    previous?: string
    title: string
    notes?: string
    status?: Status
    due?: string
  },
  provider: ProviderReader,
): Promise<ChangeDescription> {
  const [list, parent, previous] = await Promise.all([
    readList(provider, args.tasklist),
    args.parent ? readTask(provider, args.tasklist, args.parent) : undefined,
    args.previous ? readTask(provider, args.tasklist, args.previous) : undefined,
  ])
  const where = [
    parent && ` under ${quoted(parent.title)}`,
    previous && `, after ${quoted(previous.title)}`,
    args.due && `, due ${dueDay(args.due)}`,
    args.status === 'completed' && ', already done',
  ]
  return {
    summary: `Add task ${quoted(args.title)} to list ${quoted(list.title)}${where.filter(Boolean).join('')}?`,
    details: [
      detail('Title', quoted(args.title)),
      detail('List', quoted(list.title)),
      ...(parent ? [detail('Subtask of', quoted(parent.title))] : []),
      detail('Position', placeOf(parent, previous)),
      ...(args.due ? [detail('Due', dueDay(args.due))] : []),
      ...(args.notes ? [detail('Notes', notesPreview(args.notes))] : []),
      ...(args.status ? [detail('Status', statusWord(args.status))] : []),
    ],
  }
}

export async function describeUpdateTask(
  args: {
    tasklist: string
    task: string
    title?: string
    notes?: string | null
    status?: Status
    due?: string | null
    completed?: string
    deleted?: false
  },
  provider: ProviderReader,
): Promise<ChangeDescription> {
  const [list, current] = await Promise.all([
    readList(provider, args.tasklist),
    readTask(provider, args.tasklist, args.task),
  ])
  const changes: string[] = []
  const details: ChangeDetail[] = []

  if (args.title !== undefined) {
    changes.push(`title to ${quoted(args.title)}`)
    details.push(detail('Title', quoted(args.title), quoted(current.title)))
  }
  if (args.notes !== undefined) {
    const was = current.notes ? notesPreview(current.notes) : 'none'
    if (!args.notes) {
      changes.push('clear the notes')
      details.push(detail('Notes', 'none', was))
    } else {
      changes.push(current.notes ? 'replace the notes' : 'add notes')
      details.push(detail('Notes', notesPreview(args.notes), was))
    }
  }
  if (args.status !== undefined) {
    changes.push(args.status === 'completed' ? 'mark as done' : 'mark as not done')
    details.push(detail('Status', statusWord(args.status), statusWord(current.status)))
  }
  if (args.due !== undefined) {
    const was = current.due ? dueDay(current.due) : 'none'
    changes.push(args.due === null ? 'remove the due day' : `due ${dueDay(args.due)}`)
    details.push(detail('Due', args.due === null ? 'none' : dueDay(args.due), was))
  }
  if (args.completed !== undefined) {
    const done = (args.status ?? current.status) === 'completed'
    changes.push(`done on ${moment(args.completed)}`)
    details.push(
      detail(
        'Done on',
        done ? moment(args.completed) : `${moment(args.completed)} (ignored: the task is not done)`,
      ),
    )
  }
  if (args.deleted === false) {
    changes.push('restore it')
    details.push(
      detail(
        'Restore',
        current.deleted
          ? 'yes, with the subtasks deleted with it'
          : 'yes (it is not deleted: nothing to restore)',
      ),
    )
  }
  return {
    summary: `Change task ${quoted(current.title)} in list ${quoted(list.title)}: ${changes.join(', ')}?`,
    details: [
      detail('Task', quoted(current.title)),
      detail('List', quoted(list.title)),
      ...details,
    ],
    ifMatch: current.etag,
  }
}

export async function describeMoveTask(
  args: {
    tasklist: string
    task: string
    destinationTasklist?: string
    previous?: string
    parent?: string
  },
  provider: ProviderReader,
): Promise<ChangeDescription> {
  // parent and previous are tasks of the list the task goes to.
  const target = args.destinationTasklist ?? args.tasklist
  const [list, moved, destination, parent, previous] = await Promise.all([
    readList(provider, args.tasklist),
    readTask(provider, args.tasklist, args.task),
    args.destinationTasklist ? readList(provider, args.destinationTasklist) : undefined,
    args.parent ? readTask(provider, target, args.parent) : undefined,
    args.previous ? readTask(provider, target, args.previous) : undefined,
  ])
  // Where it is now, for the person to see from where it goes.
  const currentParent = moved.parent
    ? await readTask(provider, args.tasklist, moved.parent)
    : undefined
  const otherList = destination !== undefined && destination.id !== list.id
  const task = quoted(moved.title)
  // Within a list the place is the point of the move, so it is always said; to another list,
  // only where it was asked for.
  const summary = otherList
    ? `Move task ${task} from list ${quoted(list.title)} to list ${quoted(destination.title)}${[
        parent && `, under ${quoted(parent.title)}`,
        previous && `, after ${quoted(previous.title)}`,
      ]
        .filter(Boolean)
        .join('')}?`
    : `Move task ${task} in list ${quoted(list.title)} ${
        parent ? `under ${quoted(parent.title)}` : 'to the top level'
      }, ${
        previous
          ? `after ${quoted(previous.title)}`
          : parent
            ? 'as its first subtask'
            : 'as the first task'
      }?`
  return {
    summary,
    details: [
      detail('Task', task),
      otherList
        ? detail('List', quoted(destination.title), quoted(list.title))
        : detail('List', quoted(list.title)),
      detail(
        'Subtask of',
        parent ? quoted(parent.title) : 'none (top level)',
        currentParent ? quoted(currentParent.title) : 'none (top level)',
      ),
      detail('Position', placeOf(parent, previous)),
    ],
    ifMatch: moved.etag,
  }
}

export async function describeDeleteTask(
  args: { tasklist: string; task: string },
  provider: ProviderReader,
): Promise<ChangeDescription> {
  const [list, doomed] = await Promise.all([
    readList(provider, args.tasklist),
    readTask(provider, args.tasklist, args.task),
  ])
  return {
    summary: `Delete task ${quoted(doomed.title)} from list ${quoted(list.title)}?`,
    details: [
      detail('Task', quoted(doomed.title)),
      detail('List', quoted(list.title)),
      ...(doomed.due ? [detail('Due', dueDay(doomed.due))] : []),
      detail('Status', statusWord(doomed.status)),
      detail('Subtasks', 'deleted with it, if it has any'),
      ...(doomed.assignmentInfo
        ? [detail('Also deleted', `the original in the ${surfaceOf(doomed)} it was assigned from`)]
        : []),
      ...(doomed.deleted ? [detail('Already deleted', 'yes: nothing more changes')] : []),
    ],
    ifMatch: doomed.etag,
  }
}
