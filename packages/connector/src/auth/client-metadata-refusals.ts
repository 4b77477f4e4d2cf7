import { errors, type Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import { isDocumentClientId as isDocumentUrl } from './clients.js'

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
 * Each refusal is told apart: a document that could not be had (no answer, a connection refused,
 * an error status: the app's server is down, or this server cannot reach it) or one that was had
 * and is not acceptable. The person's page says which (pages/request-error-page.ts), and the log
 * names the document's host and the reason, once per refusal.
 *
 * The memory is per process (each replica keeps its own) and bounded: beyond `MAX_REFUSALS` the
 * oldest refusal is forgotten first, which at worst lets a document be fetched again.
 */

export const REFUSAL_MEMORY_MS = 60_000
export const MAX_REFUSALS = 1_000

export interface DocumentRefusal {
  /** The host of the document's URL: what the person and the operator can act on. */
  host: string
  /** True when the document could not be had at all; false when it was had and refused. */
  unreachable: boolean
  /** In a few words, for the log and the page: "no answer within 2.5 s", "it answered 503". */
  reason: string
}

/** A lookup's error that came from a refused document, with what went wrong. */
export type RefusalError = Error & { documentRefusal: DocumentRefusal }

export const refusalOf = (error: unknown): DocumentRefusal | undefined =>
  (error as Partial<RefusalError> | undefined)?.documentRefusal

export class RefusedDocuments {
  /** Document URL -> the refusal and when it is forgotten (epoch ms); oldest first (Map order). */
  readonly #refused = new Map<string, { refusal: DocumentRefusal; until: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  get(url: string): DocumentRefusal | undefined {
    const entry = this.#refused.get(url)
    if (entry === undefined) return undefined
    if (entry.until > this.now()) return entry.refusal
    this.#refused.delete(url)
    return undefined
  }

  add(url: string, refusal: DocumentRefusal): void {
    this.#refused.delete(url)
    while (this.#refused.size >= MAX_REFUSALS) {
      this.#refused.delete(this.#refused.keys().next().value!)
    }
    this.#refused.set(url, { refusal, until: this.now() + REFUSAL_MEMORY_MS })
  }
}

/** What oidc-provider throws when it refuses a document (never for a store failure). */
const isRefusal = (error: unknown): error is InstanceType<typeof errors.OIDCProviderError> =>
  error instanceof errors.OIDCProviderError &&
  (error.error === 'invalid_client' ||
    error.error === 'invalid_client_metadata' ||
    error.error === 'invalid_redirect_uri')

/** Network errors (Node's and undici's codes) that mean the document's server was not reached. */
const UNREACHED =
  /^(E[A-Z_]+|UND_ERR_[A-Z_]+|CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+|DEPTH_ZERO_[A-Z_]+|SELF_SIGNED_[A-Z_]+)$/

/** Tells what went wrong with the document at `url`, from oidc-provider's error. */
export function describeRefusal(url: string, error: unknown): DocumentRefusal {
  const host = URL.parse(url)?.host ?? url
  const refused = (reason: string) => ({ host, unreachable: false, reason })
  const unreached = (reason: string) => ({ host, unreachable: true, reason })
  if (!isRefusal(error)) return refused('it was refused')
  const detail = (error as { error_detail?: unknown }).error_detail
  const status = typeof detail === 'string' && /unexpected response status (\d+)/.exec(detail)?.[1]
  if (status) return unreached(`it answered ${status}`)
  let cause: unknown = error.cause
  if (cause instanceof Error && cause.name === 'TimeoutError') {
    return unreached('no answer within 2.5 s')
  }
  // fetch fails with a TypeError whose cause is the socket's or resolver's error.
  while (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code
    if (cause.message.includes('special-use IP address')) {
      return refused('its address is a private or special-use one')
    }
    if (code && UNREACHED.test(code)) return unreached(`${code}: ${cause.message}`)
    cause = cause.cause
  }
  return refused(error.error_description ?? error.error)
}

/**
 * Makes the provider's client lookup remember refused documents: a lookup of one of them fails at
 * once, as the first one did, without fetching anything. Each new refusal is logged once.
 */
export function rememberRefusedDocuments(
  provider: Provider,
  log: Logger,
  refused = new RefusedDocuments(),
): void {
  const { Client } = provider
  const find = Client.find.bind(Client)
  Client.find = async (id: string) => {
    const remembered = isDocumentUrl(id) ? refused.get(id) : undefined
    if (remembered) {
      throw withRefusal(
        new errors.InvalidClient(
          'client_id metadata document refused: it failed less than a minute ago, and is not fetched again until then',
        ),
        remembered,
      )
    }
    try {
      return await find(id)
    } catch (error) {
      if (!isDocumentUrl(id) || !isRefusal(error)) throw error
      const refusal = describeRefusal(id, error)
      refused.add(id, refusal)
      log.warn(
        { host: refusal.host, reason: refusal.reason },
        refusal.unreachable
          ? 'could not fetch a client metadata document'
          : 'refused a client metadata document',
      )
      throw withRefusal(error, refusal)
    }
  }
}

function withRefusal(error: Error, documentRefusal: DocumentRefusal): RefusalError {
  return Object.assign(error, { documentRefusal })
}
