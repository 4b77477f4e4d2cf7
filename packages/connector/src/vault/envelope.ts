import { SealedValueError } from './errors.js'

/**
 * A sealed value as stored: `v1.<key id>.<iv>.<ciphertext>.<tag>`, the last three base64url.
 * Text, so it fits a text column on every engine; the key id is readable so that rotation and
 * operators can tell which key a row needs without opening it.
 */
export interface Envelope {
  keyId: string
  iv: Buffer
  ciphertext: Buffer
  tag: Buffer
}

const VERSION = 'v1'
export const IV_BYTES = 12
export const TAG_BYTES = 16

/** What the tag authenticates besides the caller's binding: the version and the key id. */
export const headerOf = (keyId: string) => `${VERSION}.${keyId}`

export function formatEnvelope({ keyId, iv, ciphertext, tag }: Envelope): string {
  return [headerOf(keyId), iv, ciphertext, tag]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

export function parseEnvelope(text: string): Envelope {
  const [version, keyId, ...encoded] = text.split('.')
  const [iv, ciphertext, tag] = encoded.map(decodeCanonical)
  if (version !== VERSION || !keyId || !/^[0-9a-f]+$/.test(keyId) || encoded.length !== 3) {
    throw new SealedValueError('not a sealed value of this vault (unknown envelope format)')
  }
  if (!iv || !ciphertext || !tag || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new SealedValueError('not a sealed value of this vault (malformed IV, data or tag)')
  }
  return { keyId, iv, ciphertext, tag }
}

/**
 * Base64url has spare bits in its last character; accepting only the one canonical spelling
 * means that any changed character is a changed value, which the tag then rejects.
 */
function decodeCanonical(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  const bytes = Buffer.from(text, 'base64url')
  return bytes.toString('base64url') === text ? bytes : undefined
}

/** The key id of a sealed value, without opening it. */
export const keyIdOfEnvelope = (text: string) => parseEnvelope(text).keyId
