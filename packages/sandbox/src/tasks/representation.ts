import { createHash } from 'node:crypto'
import type { TaskLinks } from '../core/task-links.js'
import { assignmentOf, type ListRow, type TaskRow } from './rows.js'
import { dueInstant } from './timestamps.js'

/** A short, quoted hash: equal content gives an equal etag, any change gives another. */
function etagOf(content: unknown[]): string {
  return `"${createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 22)}"`
}

/** Derived from the stored row, never from absolute links, so it does not depend on the host. */
export const taskEtag = (t: TaskRow) =>
  etagOf([
    t.id,
    t.list_id,
    t.parent_id,
    t.position,
    t.title,
    t.notes,
    t.status,
    t.due,
    t.completed,
    t.updated,
    t.hidden,
    t.deleted,
    t.recurring,
    t.assignment,
    t.links,
  ])

const listEtag = (l: ListRow) => etagOf([l.id, l.title, l.updated])

/** A page changes when any of its items or where it ends changes. */
const pageEtag = (items: { etag: string }[], nextPageToken: string | undefined) =>
  etagOf([...items.map((i) => i.etag), nextPageToken ?? null])

export function taskJson(t: TaskRow, links: TaskLinks) {
  const assignment = assignmentOf(t)
  return {
    kind: 'tasks#task' as const,
    id: t.id,
    etag: taskEtag(t),
    title: t.title,
    updated: t.updated,
    selfLink: links.task(t.list_id, t.id),
    webViewLink: `${links.pages}/web/tasks/${t.id}`,
    ...(t.parent_id !== null && { parent: t.parent_id }),
    position: t.position,
    ...(t.notes !== null && { notes: t.notes }),
    status: t.status,
    ...(t.due !== null && { due: dueInstant(t.due) }),
    ...(t.completed !== null && { completed: t.completed }),
    deleted: t.deleted === 1,
    hidden: t.hidden === 1,
    links: t.links === null ? [] : (JSON.parse(t.links) as unknown[]),
    ...(assignment && {
      assignmentInfo: {
        surfaceType: assignment.surfaceType,
        linkToTask: `${links.pages}/web/surfaces/${assignment.surfaceItemId}`,
        ...(assignment.driveResourceInfo && { driveResourceInfo: assignment.driveResourceInfo }),
        ...(assignment.spaceInfo && { spaceInfo: assignment.spaceInfo }),
      },
    }),
  }
}

export function taskListJson(l: ListRow, links: TaskLinks) {
  return {
    kind: 'tasks#taskList' as const,
    id: l.id,
    etag: listEtag(l),
    title: l.title,
    updated: l.updated,
    selfLink: links.list(l.id),
  }
}

export function tasksPage(items: TaskRow[], nextPageToken: string | undefined, links: TaskLinks) {
  const json = items.map((t) => taskJson(t, links))
  return {
    kind: 'tasks#tasks' as const,
    etag: pageEtag(json, nextPageToken),
    items: json,
    ...(nextPageToken !== undefined && { nextPageToken }),
  }
}

export function taskListsPage(
  items: ListRow[],
  nextPageToken: string | undefined,
  links: TaskLinks,
) {
  const json = items.map((l) => taskListJson(l, links))
  return {
    kind: 'tasks#taskLists' as const,
    etag: pageEtag(json, nextPageToken),
    items: json,
    ...(nextPageToken !== undefined && { nextPageToken }),
  }
}
