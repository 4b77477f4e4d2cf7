import type { ServerResponse } from 'node:http'

/**
 * The requests a server is still answering, so that a replica being stopped (SIGTERM) finishes
 * them before it closes: a tool call in flight completes, and its answer reaches the assistant.
 * Once stopping, every connection ends with its answer (which says `Connection: close` if not yet
 * begun), so a kept-alive client (or a reverse proxy's pool) takes its next request to another
 * replica instead of this one.
 */
export class InFlight {
  readonly #answering = new Set<ServerResponse>()
  #stopping = false
  #onIdle: (() => void) | undefined

  get stopping(): boolean {
    return this.#stopping
  }

  /** Holds `res` until it is answered or its connection ends, whichever comes first. */
  track(res: ServerResponse): void {
    if (this.#stopping) res.shouldKeepAlive = false
    this.#answering.add(res)
    res.once('close', () => {
      this.#answering.delete(res)
      if (this.#answering.size === 0) this.#onIdle?.()
    })
  }

  /**
   * From now on answers close their connections; resolves with how many requests were still in
   * flight at `deadlineMs` (0 when all were answered in time).
   */
  stop(deadlineMs: number): Promise<number> {
    this.#stopping = true
    for (const res of this.#answering) {
      if (!res.headersSent) res.shouldKeepAlive = false
      else {
        // Its client was told keep-alive already (a stream, say): end the connection after it.
        const socket = res.socket
        res.once('finish', () => socket?.end())
      }
    }
    if (this.#answering.size === 0) return Promise.resolve(0)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#onIdle = undefined
        resolve(this.#answering.size)
      }, deadlineMs)
      this.#onIdle = () => {
        clearTimeout(timer)
        resolve(0)
      }
    })
  }
}
