import { createHash, timingSafeEqual } from 'node:crypto'

/** RFC 7636: 43-128 characters of the unreserved set. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/** An S256 challenge is the base64url (unpadded) SHA-256 of the verifier: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** Only S256 is supported: `plain` would let a stolen code be redeemed by whoever saw it. */
export const CHALLENGE_METHOD = 'S256'

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

/** Whether the verifier presented at the token endpoint answers the code's challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const actual = Buffer.from(s256(verifier))
  const expected = Buffer.from(challenge)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
