import { isLoopbackHostname } from '../../config/loopback.js'
import { redirectUriOf } from '../../upstream/index.js'
import { fix, ok, type Finding } from './findings.js'

/**
 * PUBLIC_URL, which the provider, the hosts and the person's browser all reach the connector by:
 * https, or plain http on this machine for a trial. It gives the exact redirect URI to register.
 */
export function publicUrlFindings(publicUrl: string, realProvider: boolean): Finding[] {
  const url = new URL(publicUrl)
  const redirect = `Redirect URI to register on the OAuth client, exactly: ${redirectUriOf(publicUrl)}`
  if (url.protocol === 'https:')
    return [ok(`PUBLIC_URL ${url.origin} is https`, ...(realProvider ? [redirect] : []))]
  if (isLoopbackHostname(url.hostname))
    return [
      ok(
        `PUBLIC_URL ${url.origin} is plain http on this machine: fine for a trial; assistants and browsers on other machines cannot reach it`,
        ...(realProvider
          ? [
              redirect,
              `Open the connector as ${url.host} in the browser too: 127.0.0.1 and localhost are two different addresses to the provider.`,
            ]
          : []),
      ),
    ]
  return [
    fix(
      `PUBLIC_URL ${url.origin} is plain http on another machine: put a TLS proxy in front and set PUBLIC_URL=https://${url.host}`,
      'Google refuses an http redirect URI off loopback, the hosts refuse an http connector, and tokens would cross the network in clear.',
      'See docs/operations.md, "Behind a reverse proxy".',
    ),
  ]
}
