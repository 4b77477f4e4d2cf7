import type { z } from 'zod'

/**
 * Page tokens are opaque to callers: base64url JSON that says where the previous page stopped,
 * checked against the listing's own schema when it comes back.
 */

// Far above any token handed out: a forged giant is refused before it is parsed.
const MAX_TOKEN = 64 * 1024

export const encodePageToken = (cursor: unknown) =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url')

/** The cursor a token holds, or undefined for anything this sandbox did not hand out. */
export function decodePageToken<S extends z.ZodType>(
  schema: S,
  token: string,
): z.output<S> | undefined {
  if (token.length > MAX_TOKEN || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
