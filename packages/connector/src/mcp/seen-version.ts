import type { ProviderReader } from '../services/definition.js'

/**
 * The person approved a change to a resource as they saw it: its etag. A provider that honours
 * If-Match refuses the change itself when the resource changed since (412). One that does not
 * (Google documents no If-Match for Tasks) is guarded here instead: the resource is read again
 * just before the change is sent, and the change is refused, with nothing sent, unless its etag
 * is still the one the person saw. If-Match is sent all the same. One round trip remains between
 * that read and the change (docs/decisions.md, "Google profile", its etags).
 */

export class ChangedSinceSeen extends Error {
  override name = 'ChangedSinceSeen'
  constructor() {
    super('The resource changed after the person saw it: the change was not sent.')
  }
}

/** Throws ChangedSinceSeen unless `existing`, read with the call's arguments, still has `etag`. */
export async function checkStillAsSeen(
  provider: ProviderReader,
  existing: string,
  args: Record<string, unknown>,
  etag: string,
): Promise<void> {
  const current = await provider.get(existing, args as Record<string, string>)
  if ((current as { etag?: unknown } | undefined)?.etag !== etag) throw new ChangedSinceSeen()
}
