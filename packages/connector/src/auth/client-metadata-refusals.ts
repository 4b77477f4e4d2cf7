import { errors, type Provider } from 'oidc-provider'

/**
 * A short memory of client ID metadata documents that were refused: whatever went wrong (no
 * answer within oidc-provider's 2.5 s, an error status, a body that is not a valid document, a
 * redirect URI we do not accept), the same URL is not fetched again for a minute, for any request.
 *
 * oidc-provider caches the documents it accepts, never a refusal, and its authorization endpoint
 * looks a client up twice when the first lookup fails (once to check the request, once more in
 * its error handler, to decide where the error may go). Without this, a slow URL held each
 * authorization request for two deadlines, 5 s, and every anonymous request made two outbound
 * fetches. With it, one request makes at most one fetch per document, and a refused document makes
 * none for a minute.
 *
 * The memory is per process (each replica keeps its own) and bounded: beyond `MAX_REFUSALS` the
 * oldest refusal is forgotten first, which at worst lets a document be fetched again.
 */

export const REFUSAL_MEMORY_MS = 60_000
export const MAX_REFUSALS = 1_000

export class RefusedDocuments {
  /** Document URL -> when its refusal is forgotten (epoch ms); oldest first (Map order). */
  readonly #until = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  has(url: string): boolean {
    const until = this.#until.get(url)
    if (until === undefined) return false
    if (until > this.now()) return true
    this.#until.delete(url)
    return false
  }

  add(url: string): void {
    this.#until.delete(url)
    while (this.#until.size >= MAX_REFUSALS) {
      this.#until.delete(this.#until.keys().next().value!)
    }
    this.#until.set(url, this.now() + REFUSAL_MEMORY_MS)
  }
}

/** Only a client id that is an https URL can name a document (oidc-provider's own rule). */
const isDocumentUrl = (id: unknown): id is string =>
  typeof id === 'string' && /^https:\/\//i.test(id)

/** What oidc-provider throws when it refuses a document (never for a store failure). */
const isRefusal = (error: unknown) =>
  error instanceof errors.OIDCProviderError &&
  (error.error === 'invalid_client' ||
    error.error === 'invalid_client_metadata' ||
    error.error === 'invalid_redirect_uri')

/**
 * Makes the provider's client lookup remember refused documents: a lookup of one of them fails at
 * once, as the first one did (invalid_client), without fetching anything.
 */
export function rememberRefusedDocuments(
  provider: Provider,
  refused = new RefusedDocuments(),
): void {
  const { Client } = provider
  const find = Client.find.bind(Client)
  Client.find = async (id: string) => {
    if (isDocumentUrl(id) && refused.has(id)) {
      throw new errors.InvalidClient(
        'client_id metadata document refused: it failed less than a minute ago, and is not fetched again until then',
      )
    }
    try {
      return await find(id)
    } catch (error) {
      if (isDocumentUrl(id) && isRefusal(error)) refused.add(id)
      throw error
    }
  }
}
