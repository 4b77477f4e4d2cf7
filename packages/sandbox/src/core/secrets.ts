import { createHash, randomBytes } from 'node:crypto'

/** A new unguessable value for a token, code, session or id (base64url, 256 bits unless told). */
export const randomToken = (prefix = '', bytes = 32) =>
  prefix + randomBytes(bytes).toString('base64url')

/** What the store keeps in place of a token, code or session: its SHA-256. */
export const hashSecret = (value: string) => createHash('sha256').update(value).digest('base64url')
