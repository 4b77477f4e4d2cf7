import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/**
 * A client's own https server for its client ID metadata documents (started for one test file):
 * whatever URL it is asked at, it answers the document `documentFor` gives, with `client_id` set
 * to that URL. `requests` lists the hosts it was asked at, so a test can tell whether the
 * connector fetched anything.
 */
export function metadataDocumentsForSuite(
  tls: { cert: string; key: string },
  documentFor: (clientId: string) => Record<string, unknown>,
) {
  let server: Server | undefined
  let port = 0
  const requests: string[] = []
  beforeAll(async () => {
    server = createServer(tls, (req, res) => {
      const host = req.headers.host!
      requests.push(host)
      const clientId = `https://${host}${req.url}`
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ ...documentFor(clientId), client_id: clientId }))
    })
    await new Promise<void>((resolve) => server!.listen(0, '::', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
  })
  return {
    get port() {
      return port
    },
    requests,
    /** The document URL (the client id) on `host` (a name or a bracketed address). */
    url: (host: string, path = '/client.json') => `https://${host}:${port}${path}`,
  }
}
