import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import { VaultKeyError } from './errors.js'

/** AES-256 keys. */
export const KEY_BYTES = 32

export interface VaultKey {
  /** Names the key in sealed envelopes and the store; derived from the key, reveals nothing of it. */
  readonly id: string
  /** A KeyObject, so that logging a key never prints its bytes. */
  readonly secret: KeyObject
}

const KEY_FORMAT =
  'one or more 32-byte keys separated by commas, each as 64 hex digits or as base64 ' +
  '(44 characters; generate one with `openssl rand -base64 32`); the first key seals, all keys open'

/**
 * Parses the VAULT_KEY format: a comma-separated list where the first key seals and every key
 * opens (listing the old key after the new one is how keys rotate). `source` names where the text
 * came from, for the error; the text itself is never repeated.
 */
export function parseKeyList(text: string, source: string): VaultKey[] {
  const parts = text.split(',').map((part) => part.trim())
  if (parts.every((part) => part === '')) {
    throw new VaultKeyError(`${source} holds no key: expected ${KEY_FORMAT}.`)
  }
  const keys: VaultKey[] = []
  parts.forEach((part, index) => {
    const bytes = decodeKey(part)
    if (!bytes) {
      const which = parts.length > 1 ? `key ${index + 1} of ${parts.length} in ${source}` : source
      throw new VaultKeyError(`${which} is not a valid key: expected ${KEY_FORMAT}.`)
    }
    const key = vaultKey(bytes)
    if (!keys.some((known) => known.id === key.id)) keys.push(key)
  })
  return keys
}

export function vaultKey(bytes: Buffer): VaultKey {
  return { id: keyIdOf(bytes), secret: createSecretKey(bytes) }
}

function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex')
  // Standard or URL-safe base64, padded or not.
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined
  const bytes = Buffer.from(text, 'base64')
  return bytes.length === KEY_BYTES ? bytes : undefined
}

/** 64 bits of a keyed hash of a fixed label: stable for a key, useless for guessing it. */
function keyIdOf(bytes: Buffer): string {
  return createHmac('sha256', bytes).update('countersign vault key id').digest('hex').slice(0, 16)
}
