import { errors } from 'oidc-provider'
import { allScopeNames } from './resources.js'

/**
 * A client's `scope` metadata (RFC 7591 §2), in a registration or a metadata document. MCP
 * clients send the scopes of the resource they want (the MCP SDK registers with the protected
 * resource's `scopes_supported`); oidc-provider would check them against its own OpenID scopes
 * and refuse the registration. Here a scope must be one of the services' (anything else is
 * invalid_client_metadata), and the value is then not kept: every authorization request names
 * its one service and its scopes, which the person sees on the consent page (RFC 7591 §3.2.1
 * lets the server replace requested values; the answer leaves `scope` out).
 */
export function acceptClientScope(metadata: Record<string, unknown>) {
  const value = metadata.scope
  if (value === undefined) return
  if (typeof value !== 'string') throw new errors.InvalidClientMetadata('scope must be a string')
  const known = allScopeNames()
  const unknown = value.split(' ').filter((scope) => scope && !known.includes(scope))
  if (unknown.length) {
    throw new errors.InvalidClientMetadata(
      `scope: "${unknown[0]}" is not a scope of this server; it offers ${known.join(', ')}`,
    )
  }
  delete metadata.scope
}
