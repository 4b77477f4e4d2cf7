import { generateKeyBetween } from 'fractional-indexing'
import type { SandboxDb } from '../db/open.js'

/**
 * Sibling order uses fractional keys: a new key strictly between two neighbours' keys, so an
 * insert or a move writes the one task placed and never renumbers its siblings.
 */

/** The children of `parentId` (top level when null) in a list: what the sibling index serves. */
export function siblingsOf(db: SandboxDb, listId: string, parentId: string | null) {
  const query = db.selectFrom('tasks').where('list_id', '=', listId)
  return parentId === null
    ? query.where('parent_id', 'is', null)
    : query.where('parent_id', '=', parentId)
}

interface Placement {
  listId: string
  parentId: string | null
  /** The sibling to follow, or null for the first position. */
  after: { position: string } | null
  /** The task being moved: it is not its own neighbour. */
  moving?: string
}

/**
 * The key for a task placed right after `after` (or first). Every sibling row counts, deleted
 * and hidden ones too, so keys stay unique and a restored task comes back to its place.
 */
export async function positionFor(db: SandboxDb, placement: Placement): Promise<string> {
  const { listId, parentId, after, moving } = placement
  let next = siblingsOf(db, listId, parentId).select('position')
  if (moving) next = next.where('id', '!=', moving)
  if (after) next = next.where('position', '>', after.position)
  const following = await next.orderBy('position').orderBy('id').limit(1).executeTakeFirst()
  return generateKeyBetween(after?.position ?? null, following?.position ?? null)
}
