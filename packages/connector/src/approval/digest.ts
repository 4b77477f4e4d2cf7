import { createHash, createHmac, randomBytes } from 'node:crypto'
import type { Vault } from '../vault/vault.js'

/**
 * What binds an approval to one call, and the approval's own id.
 *
 * A call is known by the digest of its canonical arguments: the same values give the same digest
 * whatever the order of their keys, and any other value gives another. The digest is keyed
 * (HMAC-SHA-256 under a key derived from the vault), so a copy of the database cannot be used to
 * confirm a guess at a call's arguments (a task's title, say) by hashing it.
 */

/**
 * JSON with every object's keys sorted (by UTF-16 code units, as RFC 8785), recursively, and no
 * whitespace; otherwise as `JSON.stringify` writes it (undefined members left out, non-finite
 * numbers as null, `toJSON` honoured).
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null'
}

function write(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && 'toJSON' in value) {
    const toJSON = (value as { toJSON: unknown }).toJSON
    if (typeof toJSON === 'function') value = toJSON.call(value)
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null'
    case 'bigint':
      throw new TypeError('a call argument cannot be a bigint')
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`
  const object = value as Record<string, unknown>
  const members: string[] = []
  for (const key of Object.keys(object).sort()) {
    const written = write(object[key])
    if (written !== undefined) members.push(`${JSON.stringify(key)}:${written}`)
  }
  return `{${members.join(',')}}`
}

/** The digests of a call's arguments, under the vault's keys. */
export class ArgumentDigests {
  readonly #keys: Buffer[]

  constructor(vault: Vault) {
    this.#keys = vault.deriveKeys('approval: call arguments digest')
  }

  /**
   * The digest under each key the vault holds, the sealing key's first: what a new approval is
   * stored under, then what one stored by a replica still on a previous key would be.
   */
  of(args: unknown): string[] {
    const canonical = canonicalJson(args)
    return this.#keys.map((key) => createHmac('sha256', key).update(canonical).digest('hex'))
  }
}

/** A new approval id: 256 random bits, URL-safe (43 characters). */
export const newApprovalId = () => randomBytes(32).toString('base64url')

export const isApprovalId = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value)

/** What the store keeps of an id. */
export const approvalKey = (id: string) => createHash('sha256').update(id).digest('hex')
