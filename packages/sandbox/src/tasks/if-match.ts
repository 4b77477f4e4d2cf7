import { conditionNotMet } from '../http/errors.js'

/**
 * Honours If-Match: any member of its comma-separated list equal to the current etag, or `*`.
 * A change made against a stale read fails instead of overwriting what the caller never saw.
 */
export function assertIfMatch(header: string | undefined, etag: string): void {
  if (header === undefined) return
  const members = header.split(',').map((m) => m.trim())
  if (members.includes('*') || members.includes(etag)) return
  throw conditionNotMet(
    `If-Match ${header.slice(0, 100)} does not match the current etag ${etag}: the resource changed since it was read. Read it again and retry.`,
  )
}
