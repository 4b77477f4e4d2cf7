import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http'
import type { Socket } from 'node:net'

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[]

/** How long a connection closed under a client still sending waits for it to stop. */
const LINGER_MS = 2000

/**
 * The answers of both programs' HTTP servers, each created with this as its `ServerResponse`:
 * the connector's one server (Hono's answers and oidc-provider's alike) and the sandbox's two
 * origins. One sent before its request's body has fully arrived (a 413 past a bound, a 401 or a
 * refused form, answered without reading) says `Connection: close`: the rest of the body is still
 * on its way, so the connection cannot carry a next request until it is drained, and
 * @hono/node-server gives up draining after 500 ms and destroys the socket. A client told
 * `keep-alive` would send its next request on a connection about to break; told `close`, it
 * opens a new one.
 */
export class EarlyAnswerResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | Headers,
    headers?: Headers,
  ): this {
    if (bodyStillArriving(this.req)) {
      this.setHeader('Connection', 'close')
      if (this.socket) closeGently(this.socket)
    }
    // Node sorts out which of the two forms this is.
    return super.writeHead(statusCode, reasonOrHeaders as string | undefined, headers)
  }
}

/**
 * Whether the request has a body not yet all received. A request without one is `complete` only
 * once the parser is past it, which can be after a synchronous answer: it is never early.
 */
function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/**
 * Node closes the connection of an answer that says `close` with `destroySoon()`: its side
 * ended, then the socket destroyed at once. Bytes of the body still arriving then meet a closed
 * socket, which resets the connection, and a client still sending can lose the answer before it
 * reads it. Closed gently instead (a lingering close): our side ended, the socket destroyed
 * once the client has ended its side too, or after LINGER_MS.
 */
function closeGently(socket: Socket) {
  let closing = false
  socket.destroySoon = () => {
    if (closing) return
    closing = true
    if (socket.writable) socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('end', () => socket.destroy())
    socket.once('close', () => clearTimeout(timer))
  }
}
