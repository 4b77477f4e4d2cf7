import type { IncomingMessage } from 'node:http'

/**
 * The connector's one reader of request bodies, bounded: every body it reads (the pages' forms,
 * the MCP endpoints' JSON, the chunked bodies sent to oidc-provider) stops at its bound as the
 * bytes arrive, whether the length was declared or the body is chunked. What is past the bound
 * is never read: the answer goes out with `Connection: close` (`EarlyAnswerResponse`,
 * packages/environment/src/early-answers.ts).
 */

/** A body longer than its bound: reading stopped there. */
export const TOO_LARGE = Symbol('body too large')
export type TooLarge = typeof TOO_LARGE

/**
 * The declared `Content-Length`, when it is a plain number. The HTTP parser never hands on more
 * than that, so a body that declares itself within the bound is read whole.
 */
export function declaredLength(value: string | null | undefined): number | undefined {
  return value != null && /^\d+$/.test(value) ? Number(value) : undefined
}

/**
 * A web request's body as text, at most `maxBytes`. With its length declared, `text()` reads it:
 * on Node, Hono's adapter then reads the socket directly, where reading `request.body` would
 * first build a web stream and a full Request (docs/decisions.md, "Connector hot path").
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | TooLarge> {
  const declared = declaredLength(request.headers.get('content-length'))
  if (declared !== undefined) return declared > maxBytes ? TOO_LARGE : request.text()
  if (!request.body) return ''
  const bytes = await upTo(chunksOf(request.body), maxBytes)
  return bytes === TOO_LARGE ? TOO_LARGE : new TextDecoder().decode(bytes)
}

/**
 * A Node request's body, at most `maxBytes`. The stream is left as it is past the bound (not
 * destroyed, which would take the socket and the answer with it).
 */
export function readIncoming(req: IncomingMessage, maxBytes: number): Promise<Buffer | TooLarge> {
  const declared = declaredLength(req.headers['content-length'])
  if (declared !== undefined && declared > maxBytes) return Promise.resolve(TOO_LARGE)
  return upTo(req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>, maxBytes)
}

async function upTo(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Buffer | TooLarge> {
  const read: Uint8Array[] = []
  let received = 0
  for await (const chunk of chunks) {
    received += chunk.byteLength
    // Leaving the loop stops the reading: the rest of the body stays unread on the socket.
    if (received > maxBytes) return TOO_LARGE
    read.push(chunk)
  }
  return Buffer.concat(read, received)
}

/** A web stream's chunks; stopping early releases it without cancelling (which ends the socket). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}
