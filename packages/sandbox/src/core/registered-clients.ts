import { timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { hashSecret } from './secrets.js'

export const clientRegistration = z.strictObject({
  clientId: z.string().min(1).max(200),
  clientSecret: z.string().min(1).max(200),
})

/**
 * The confidential clients registered through the control API (`POST /_sandbox/clients`), in
 * memory. With none, every client is accepted, as a development provider does; with one or more,
 * the token and revocation endpoints check the client as Google does, in Google's words: an
 * unknown client_id is "The OAuth client was not found.", a wrong or missing secret
 * "Unauthorized", each `invalid_client` with 401.
 */
export class RegisteredClients {
  readonly #secrets = new Map<string, Buffer>()

  register({ clientId, clientSecret }: z.infer<typeof clientRegistration>) {
    this.#secrets.set(clientId, digest(clientSecret))
  }

  /** Why the provider refuses this client, or undefined when it may go on. */
  refusal(clientId: string | undefined, secret: string | undefined): string | undefined {
    if (this.#secrets.size === 0) return undefined
    const known = clientId === undefined ? undefined : this.#secrets.get(clientId)
    if (!known) return 'The OAuth client was not found.'
    if (secret === undefined || !timingSafeEqual(known, digest(secret))) return 'Unauthorized'
    return undefined
  }

  clear() {
    this.#secrets.clear()
  }
}

/** Digests of equal length, so that the comparison takes the same time whatever was sent. */
const digest = (secret: string) => Buffer.from(hashSecret(secret))
