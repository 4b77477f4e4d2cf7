import type { IncomingMessage, ServerResponse } from 'node:http'
import { declaredLength, readIncoming, TOO_LARGE, type TooLarge } from '../http/request-body.js'

/**
 * The bodies of the authorization server's endpoints (token, registration, revocation, pushed
 * authorization requests...). oidc-provider reads them itself and stops at 56 KiB as the bytes
 * arrive, but answers 400 `invalid_request` ("failed to parse the request body") past it. The
 * connector keeps that bound and answers 413, before oidc-provider reads anything: a declared
 * length over it is refused unread; a chunked body is read here, bounded, and handed over whole
 * as `req.body`, which oidc-provider takes in place of reading (it logs once that it does).
 */

/** oidc-provider's own bound (lib/shared/selective_body.js): no request it takes is refused. */
export const OAUTH_BODY_BYTES = 56 * 1024

/** Answers 413 and returns true when the body is over the bound; else leaves it to oidc-provider. */
export async function refuseOversizedBody(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const chunked = req.headers['transfer-encoding'] !== undefined
  // Without a body, or with one its declared length bounds: nothing to read here.
  if (!chunked && (declaredLength(req.headers['content-length']) ?? 0) <= OAUTH_BODY_BYTES) {
    return false
  }
  let body: Buffer | TooLarge
  try {
    body = await readIncoming(req, OAUTH_BODY_BYTES)
  } catch {
    // The client went away mid-body: there is no one to answer, and nothing to act on.
    return refuse(res, 400, 'The request body could not be read.')
  }
  if (body === TOO_LARGE) {
    return refuse(res, 413, `The request body is larger than ${OAUTH_BODY_BYTES} bytes.`)
  }
  ;(req as IncomingMessage & { body?: Buffer }).body = body
  return false
}

function refuse(res: ServerResponse, status: number, description: string): true {
  const answer = JSON.stringify({ error: 'invalid_request', error_description: description })
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(answer),
  })
  res.end(answer)
  return true
}
