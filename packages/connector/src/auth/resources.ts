import { isServiceName, SERVICE_NAMES, SERVICES, type ServiceName } from '../services/catalog.js'

/**
 * The three protected resources (RFC 8707 resource indicators): one MCP endpoint per service.
 * A grant and its tokens are for exactly one of them.
 */

export const resourceOf = (publicUrl: string, service: ServiceName) => `${publicUrl}/${service}/mcp`

/** The service a resource indicator names, or undefined if it names none of ours. */
export function serviceOfResource(publicUrl: string, resource: unknown): ServiceName | undefined {
  if (typeof resource !== 'string') return undefined
  const prefix = `${publicUrl}/`
  if (!resource.startsWith(prefix) || !resource.endsWith('/mcp')) return undefined
  const name = resource.slice(prefix.length, -'/mcp'.length)
  return isServiceName(name) && resourceOf(publicUrl, name) === resource ? name : undefined
}

/** Every short scope name of every service: what the authorization server's metadata lists. */
export const allScopeNames = () =>
  SERVICE_NAMES.flatMap((service) => SERVICES[service].scopes.map((scope) => scope.name))
