import { lookup as dnsLookup, type LookupAddress } from 'node:dns'

/**
 * What the connector's own outbound connections share: a name resolved only to the addresses a
 * rule admits, checked when the connection is made (so a name that resolves elsewhere, or
 * changes to between a check and the connection, reaches nothing), and the code of what a
 * connection met, however it is wrapped.
 */

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for undici's connections that gives only the addresses `allowed` admits; a name
 * that resolves to none of them fails with `refusal`'s message and code.
 */
export function guardedLookup(
  allowed: (address: string) => boolean,
  refusal: { code: string; message: (hostname: string) => string },
) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const kept = addresses.filter((entry) => allowed(entry.address))
      if (kept.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(refusal.message(hostname))
        refused.code = refusal.code
        return callback(refused, [])
      }
      if ((options as { all?: boolean }).all) return callback(null, kept)
      return callback(null, kept[0]!.address, kept[0]!.family)
    })
  }
}

/** The error's code (undici's, or the system's), looking through causes and AggregateErrors. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown }
    if (typeof code === 'string') return code
    current = Array.isArray(errors) ? errors[0] : cause
  }
  return undefined
}
