import { createHmac } from 'node:crypto'

/**
 * What stands for a client address, a grant or a person in a shared table (the rate limits'
 * keys, the quota counts): HMAC-SHA-256 (hex) under a secret the vault derives, so a copy of the
 * table cannot be turned back into them. The digests of the last `remembered` values are kept:
 * on a tool call's path an HMAC costs more than the decision it serves.
 */
export function keyedDigests(secret: Buffer, remembered = 10_000): (value: string) => string {
  const known = new Map<string, string>()
  return (value) => {
    let digest = known.get(value)
    if (digest === undefined) {
      if (known.size >= remembered) known.clear()
      digest = createHmac('sha256', secret).update(value).digest('hex')
      known.set(value, digest)
    }
    return digest
  }
}
