import type { Server } from 'node:http'

/**
 * Stops listening and closes the idle kept-alive connections; resolves once every connection
 * has ended (the requests in flight answered, or their connections closed).
 */
export function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}

/** Stops listening and closes every connection at once, a request in flight or not. */
export function closeNow(server: Server): Promise<void> {
  const closed = stopAccepting(server)
  server.closeAllConnections()
  return closed
}
