import type { Context } from 'hono'
import { invalidArgument, payloadTooLarge, ProviderError } from './errors.js'

/** The bound of every body the sandbox reads but its forms: JSON, and Google's forwarded ones. */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * The sandbox's one reader of request bodies: the text of the body, at most `maxBytes`, or the
 * provider's 413 once past them, the rest left unread (the server then answers with
 * `Connection: close`, packages/environment/src/early-answers.ts). With its length declared, a
 * longer body is refused unread; a chunked one is read as it arrives and refused at the bound.
 */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const tooLarge = () => payloadTooLarge(`The request body is larger than ${maxBytes} bytes.`)
  const declared = c.req.header('content-length')
  try {
    if (declared !== undefined && /^\d+$/.test(declared)) {
      if (Number(declared) > maxBytes) throw tooLarge()
      // The HTTP parser hands on no more than was declared.
      return await c.req.text()
    }
    const body = c.req.raw.body
    if (!body) return ''
    const reader = body.getReader()
    const decoder = new TextDecoder()
    let received = 0
    let text = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return text + decoder.decode()
        received += value.byteLength
        if (received > maxBytes) throw tooLarge()
        text += decoder.decode(value, { stream: true })
      }
    } finally {
      // Released, not cancelled: cancelling the stream of a Node request ends its socket.
      reader.releaseLock()
    }
  } catch (error) {
    if (error instanceof ProviderError) throw error
    throw invalidArgument('The request body could not be read: send it whole.')
  }
}

/** Reads a JSON object body, or fails with the provider's 400 saying what is wrong. */
export async function readJsonObject(
  c: Context,
  { required = true } = {},
): Promise<Record<string, unknown>> {
  const text = await readBodyText(c, MAX_BODY_BYTES)
  if (text.trim() === '') {
    if (required) throw invalidArgument('The request needs a JSON object body.')
    return {}
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalidArgument('The request body is not valid JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument('The request body must be a JSON object.')
  }
  return value as Record<string, unknown>
}
