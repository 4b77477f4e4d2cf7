import { Agent, request, type IncomingHttpHeaders } from 'node:http'

/**
 * Uploads over raw node:http, as an attacker or a slow client sends them: a body of any size
 * (made as it is sent, never whole in memory), with its length declared or chunked, in one go or
 * in slow pieces, on a kept-alive connection when given an agent.
 *
 * The client behaves as HTTP/1.1 asks of one that gets an answer before it has sent its whole
 * body: told `Connection: close`, it stops sending; told nothing, it sends the rest, so that the
 * connection can carry its next request.
 */

export interface Upload {
  url: string
  method?: string
  headers?: Record<string, string>
  /** The body's first bytes; the rest, up to `size`, is `fill`. */
  prefix?: string
  /** The body's last bytes (within `size`): the end of a JSON document, say. */
  suffix?: string
  fill?: string
  size: number
  /** No Content-Length: Transfer-Encoding: chunked. */
  chunked?: boolean
  /** Bytes a write (64 KiB unless told), and a pause between writes (none unless told). */
  piece?: number
  pauseMs?: number
  /** A kept-alive agent; a connection of its own otherwise. */
  agent?: Agent
}

export interface UploadAnswer {
  status: number
  headers: IncomingHttpHeaders
  text: string
  /** The answer said `Connection: close`. */
  closes: boolean
  /** Body bytes written before the answer came. */
  sentBeforeAnswer: number
}

export function upload(spec: Upload): Promise<UploadAnswer> {
  const piece = spec.piece ?? 64 * 1024
  const body = bodyOf(spec)
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered: Omit<UploadAnswer, 'text'> | undefined
    let settled = false
    const req = request(spec.url, {
      method: spec.method ?? 'POST',
      agent: spec.agent ?? false,
      headers: {
        ...spec.headers,
        ...(spec.chunked ? {} : { 'content-length': String(spec.size) }),
      },
    })
    req.on('response', (res) => {
      answered = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        closes: /\bclose\b/i.test(res.headers.connection ?? ''),
        sentBeforeAnswer: sent,
      }
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        const done = () => {
          if (settled) return
          settled = true
          resolve({ ...answered!, text })
        }
        // Told to close, the client hangs up; otherwise its request ends as it would anyway.
        if (answered!.closes) {
          req.destroy()
          done()
        } else if (req.writableFinished) done()
        else {
          // Sent whole, or cut off by a server that hung up after all: the next request tells.
          req.once('finish', done)
          req.once('close', done)
        }
      })
    })
    // Once answered, a write to a server that has hung up may fail: the answer is what counts.
    req.on('error', (error) => {
      if (settled || answered) return
      reject(error)
    })
    const pump = async () => {
      while (sent < spec.size) {
        if (answered?.closes || req.destroyed) return
        const next = body(sent, Math.min(piece, spec.size - sent))
        sent += next.length
        const flushed = req.write(next)
        if (spec.pauseMs) await new Promise((r) => setTimeout(r, spec.pauseMs))
        else if (!flushed) await new Promise((r) => req.once('drain', r))
      }
      req.end()
    }
    pump().catch(reject)
  })
}

/** The body's bytes from `at`, `length` of them: prefix, fill, suffix. */
function bodyOf({ prefix = '', suffix = '', fill = 'x', size }: Upload) {
  const head = Buffer.from(prefix)
  const tail = Buffer.from(suffix)
  const filler = Buffer.alloc(256 * 1024, fill)
  const tailAt = size - tail.length
  return (at: number, length: number): Buffer => {
    const out = Buffer.allocUnsafe(length)
    for (let i = 0; i < length;) {
      const position = at + i
      if (position < head.length) {
        i += head.copy(out, i, position, Math.min(head.length, position + length - i))
      } else if (position >= tailAt) {
        i += tail.copy(out, i, position - tailAt, position - tailAt + length - i)
      } else {
        const offset = (position - head.length) % filler.length
        const end = offset + Math.min(tailAt - position, length - i)
        i += filler.copy(out, i, offset, Math.min(filler.length, end))
      }
    }
    return out
  }
}

/** A GET on `agent`: served, and on the connection before it when that one was kept. */
export function next(
  url: string,
  agent: Agent,
): Promise<{ status: number; reusedSocket: boolean; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket, text }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** A client that keeps its one connection between requests. */
export const keptAlive = () => new Agent({ keepAlive: true, maxSockets: 1 })
