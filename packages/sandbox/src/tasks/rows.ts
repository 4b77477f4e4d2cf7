import { randomBytes } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { TaskListTable, TaskTable } from '../db/schema.js'

export type TaskRow = Selectable<TaskTable>
export type ListRow = Selectable<TaskListTable>

export type SurfaceType = 'DOCUMENT' | 'SPACE'

/**
 * What the `assignment` column holds: AssignmentInfo without its absolute link, which is built
 * from the public URL when read, so etags do not change with the address the sandbox is served at.
 */
export interface StoredAssignment {
  surfaceType: SurfaceType
  /** The original task in the source surface (a row of surface_items). */
  surfaceItemId: string
  driveResourceInfo?: { driveFileId: string; resourceKey?: string }
  spaceInfo?: { space: string }
}

export const assignmentOf = (row: TaskRow): StoredAssignment | undefined =>
  row.assignment === null ? undefined : (JSON.parse(row.assignment) as StoredAssignment)

/** Ids are random and opaque, like the provider's: 16 base64url characters. */
export const newId = () => randomBytes(12).toString('base64url')
