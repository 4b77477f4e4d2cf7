import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

export interface DocumentServerOptions {
  /** How long the server holds its answer at a path, to play a slow client (default: none). */
  delayMs?: (path: string) => number
  /** Other JSON it serves as it is, by path (a client's signing keys, say); undefined: none. */
  fileAt?: (path: string) => unknown
  /** The status it answers at a path, to play a client's server in trouble (default: 200). */
  statusAt?: (path: string) => number
}

/**
 * A client's own https server for its client ID metadata documents (started for one test file):
 * whatever URL it is asked at, it answers the document `documentFor` gives, with `client_id` set
 * to that URL. `requests` lists the host and path of every request it received, so a test can
 * tell whether, and how often, the connector fetched a document.
 */
export function metadataDocumentsForSuite(
  tls: { cert: string; key: string },
  documentFor: (clientId: string) => Record<string, unknown>,
  options: DocumentServerOptions = {},
) {
  let server: Server | undefined
  let port = 0
  const requests: { host: string; path: string }[] = []
  beforeAll(async () => {
    server = createServer(tls, (req, res) => {
      const host = req.headers.host!
      requests.push({ host, path: req.url! })
      const clientId = `https://${host}${req.url}`
      const file = options.fileAt?.(req.url!)
      const answer = () => {
        res.statusCode = options.statusAt?.(req.url!) ?? 200
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify(file ?? { ...documentFor(clientId), client_id: clientId }))
      }
      const delay = options.delayMs?.(req.url!) ?? 0
      if (delay > 0) setTimeout(answer, delay)
      else answer()
    })
    await new Promise<void>((resolve) => server!.listen(0, '::', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })
  return {
    get port() {
      return port
    },
    requests,
    /** How many times the document at `path` was asked for. */
    fetchesOf: (path: string) => requests.filter((r) => r.path === path).length,
    /** The document URL (the client id) on `host` (a name or a bracketed address). */
    url: (host: string, path = '/client.json') => `https://${host}:${port}${path}`,
  }
}
