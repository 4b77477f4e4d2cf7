import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/**
 * A client's loopback redirect URI, served for one test file: the browser (or Person) lands
 * there at the end of an authorization, and the test takes the URL it landed on with `next()`.
 */
export function redirectReceiverForSuite(path = '/callback') {
  let server: Server | undefined
  let url = ''
  const arrived: URL[] = []
  const waiting: ((url: URL) => void)[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      const landed = new URL(req.url ?? '/', url)
      res.writeHead(landed.pathname === path ? 200 : 404, { 'content-type': 'text/plain' })
      res.end('You can close this window and go back to your assistant.')
      if (landed.pathname !== path) return
      const waiter = waiting.shift()
      if (waiter) waiter(landed)
      else arrived.push(landed)
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve())
      server?.closeAllConnections()
    })
  })
  return {
    /** The redirect URI to register. */
    get uri() {
      return `${url}${path}`
    },
    /** The next URL a browser landed on (already, or when it does). */
    next(): Promise<URL> {
      const landed = arrived.shift()
      if (landed) return Promise.resolve(landed)
      return new Promise((resolve) => waiting.push(resolve))
    },
  }
}
