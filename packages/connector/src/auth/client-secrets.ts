import { createHash, timingSafeEqual } from 'node:crypto'
import type { Provider } from 'oidc-provider'

/**
 * Client secrets of confidential clients (those that register with `client_secret_basic` or
 * `client_secret_post`) are stored as SHA-256 digests: a copy of the database must not let anyone
 * act as those clients. oidc-provider keeps the secret it generated in the client's metadata and
 * compares a presented secret with it, so its comparison is replaced by one against the digest.
 *
 * A plain digest (no salt, no slow hash) is enough because oidc-provider's secrets are 256+ bits
 * of randomness, never chosen by a person. The price: the secret cannot be used as an HMAC or
 * encryption key, so the provider offers no method that would (client_secret_jwt, HS* algorithms).
 */

const PREFIX = 'sha256:'

export const isHashedClientSecret = (value: string) => value.startsWith(PREFIX)

const digestOf = (secret: string) =>
  PREFIX + createHash('sha256').update(secret, 'utf8').digest('base64url')

/** The stored form; a value already hashed is left as it is (the metadata may be saved again). */
export const hashClientSecret = (secret: string) =>
  isHashedClientSecret(secret) ? secret : digestOf(secret)

/** Whether `presented` is the secret whose digest is `stored` (the digest itself never is). */
function clientSecretMatches(stored: string | undefined, presented: string): boolean {
  if (typeof stored !== 'string' || !isHashedClientSecret(stored)) return false
  const expected = Buffer.from(stored)
  const actual = Buffer.from(digestOf(presented))
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/**
 * Makes the provider's clients compare secrets against the stored digest. Every client with a
 * secret comes from the adapter (there are no static clients), so every one holds a digest.
 */
export function compareClientSecretsByDigest(provider: Provider) {
  provider.Client.prototype.compareClientSecret = function (
    this: { clientSecret?: string },
    presented: string,
  ) {
    return clientSecretMatches(this.clientSecret, presented)
  }
}
