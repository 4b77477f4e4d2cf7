import type { MiddlewareHandler } from 'hono'
import type { SandboxConfig } from '../core/config.js'
import type { SandboxEnv } from '../core/state.js'
import { ProviderError } from '../http/errors.js'

/**
 * DNS rebinding: a web page the developer visits can point its own host name at 127.0.0.1 and
 * then drive the sandbox from their browser as a same-origin page, control API included (minting
 * tokens with `POST /_sandbox/tokens`). Such a request names the page's host in `Host`. So the
 * sandbox answers only to its own names: 127.0.0.1, localhost and [::1] at the port the request
 * came in on, and the hosts of its public URLs (SANDBOX_PUBLIC_URL, SANDBOX_GOOGLE_PUBLIC_URL,
 * or the loopback origins it listens at). Anything else is refused before anything is done or
 * recorded: 421 Misdirected Request, in the origin's error shape. `/healthz` does nothing and
 * tells nothing, and answers whatever the name, for probes that call the sandbox by its address.
 */
export const answerOwnHostsOnly: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const host = c.req.header('host') ?? ''
  const { config } = c.var.sandbox
  if (c.req.path !== '/healthz' && !isOwnHost(host, config, c.env.incoming?.socket.localPort)) {
    throw new ProviderError(
      421,
      'PERMISSION_DENIED',
      'forbidden',
      `This sandbox answers only to 127.0.0.1, localhost and [::1] at its port, and to ` +
        `${publicHosts(config).join(' and ')}; this request was sent to "${host.slice(0, 100)}". ` +
        'Use one of those, or set SANDBOX_PUBLIC_URL (SANDBOX_GOOGLE_PUBLIC_URL for the Google ' +
        'origin) to the address the sandbox is reached at.',
    )
  }
  await next()
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]'])

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

/**
 * Whether `host` (a Host header) names this sandbox. `port` is the local port the request came
 * in on; unknown outside a Node server, where any port of a loopback name is taken.
 */
function isOwnHost(host: string, config: SandboxConfig, port?: number): boolean {
  const named = URL.parse(`http://${host}`)
  if (!named || named.host === '' || `http://${named.host}/` !== named.href) return false
  if (LOOPBACK_NAMES.has(named.hostname)) {
    return port === undefined || (named.port || '80') === String(port)
  }
  return [config.publicUrl, config.googlePublicUrl].some((url) => {
    const own = URL.parse(url)
    if (!own) return false
    const defaultPort = DEFAULT_PORTS[own.protocol]
    return (
      named.hostname === own.hostname && (named.port || defaultPort) === (own.port || defaultPort)
    )
  })
}

const publicHosts = (config: SandboxConfig) =>
  [config.publicUrl, config.googlePublicUrl].flatMap((url) => URL.parse(url)?.host ?? [])
