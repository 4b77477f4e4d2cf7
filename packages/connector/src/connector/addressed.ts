import type { IncomingMessage, ServerResponse } from 'node:http'
import { hostnameOfHeader, isLoopbackHostname } from '../config/loopback.js'
import type { FrontDoor } from './front-doors.js'

/**
 * A connector whose PUBLIC_URL is on loopback is reached under every loopback name, and hosts
 * compare its address as a string: a host given `http://localhost:8080/tasks/mcp` while the
 * connector says it is `http://127.0.0.1:8080` finds the protected resource's metadata naming
 * another URL, and gives up with an error of its own. So a request under another loopback name
 * than PUBLIC_URL's is told the address to use: a person's page in a browser is sent there (308);
 * anything else (MCP, OAuth, metadata) gets 421 Misdirected Request, saying it in words, as a
 * JSON-RPC error on an MCP endpoint. `/healthz` and `/readyz` answer under any name, for probes.
 */
export function misaddressedAnswers(
  publicUrl: URL,
): (req: IncomingMessage, res: ServerResponse, door?: FrontDoor) => boolean {
  if (!isLoopbackHostname(publicUrl.hostname)) return () => false
  // Nearly every request names the public host as it is written: no parsing for those.
  return (req, res, door) =>
    req.headers.host !== publicUrl.host &&
    door?.caller !== 'probe' &&
    answerMisaddressed(req, res, publicUrl, door)
}

function answerMisaddressed(
  req: IncomingMessage,
  res: ServerResponse,
  publicUrl: URL,
  door: FrontDoor | undefined,
): boolean {
  const hostname = hostnameOfHeader(req.headers.host)
  if (!hostname || hostname === publicUrl.hostname || !isLoopbackHostname(hostname)) return false

  const target = publicUrl.origin + (req.url ?? '/')
  // A path no door has is a page's mistyped address, most likely: the person is sent there too.
  const caller = door?.caller ?? 'page'
  if ((req.method === 'GET' || req.method === 'HEAD') && caller === 'page') {
    res.writeHead(308, { Location: target, 'Cache-Control': 'no-store' })
    res.end()
    return true
  }
  const message =
    `This server's address is ${publicUrl.origin}, not ${hostname}: use ${target}. ` +
    `Assistants compare the address exactly, so ${hostname} and ${publicUrl.hostname} are not the same to them.`
  const body =
    caller === 'mcp'
      ? { jsonrpc: '2.0', error: { code: -32600, message }, id: null }
      : { error: 'invalid_request', error_description: message }
  const text = JSON.stringify(body)
  res.writeHead(421, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  })
  res.end(text)
  return true
}
