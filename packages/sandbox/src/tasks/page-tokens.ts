import { z } from 'zod'
import { decodePageToken as decode, encodePageToken as encode } from '../http/page-token.js'

/**
 * The task API's page tokens (http/page-token.ts): they hold positions, never offsets, so a
 * page costs the same wherever it starts.
 */

/** One step of a path from the root of a list's forest down to a task. */
export interface PathStep {
  id: string
  position: string
}

// No bound on a position's length or on depth: both grow with use; the URL bounds the token.
const key = z.string().min(1)
const taskCursor = z.object({ l: key, p: z.array(z.tuple([key, key])).min(1) })
const listCursor = z.object({ s: z.number().int().nonnegative() })

/** Tasks resume after the last task returned: its path, so the depth-first walk picks up there. */
export interface TaskCursor {
  listId: string
  path: PathStep[]
}

export const encodeTaskCursor = ({ listId, path }: TaskCursor) =>
  encode({ l: listId, p: path.map((s) => [s.id, s.position]) })

export function decodeTaskCursor(token: string): TaskCursor | undefined {
  const cursor = decode(taskCursor, token)
  return cursor && { listId: cursor.l, path: cursor.p.map(([id, position]) => ({ id, position })) }
}

/** Lists resume after the creation sequence number of the last list returned. */
export const encodeListCursor = (seq: number) => encode({ s: seq })

export const decodeListCursor = (token: string) => decode(listCursor, token)?.s
