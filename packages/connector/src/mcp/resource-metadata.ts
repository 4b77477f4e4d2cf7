import { SERVICES, type ServiceName } from '../services/catalog.js'
import { resourceOf } from '../auth/resources.js'

/**
 * RFC 9728 protected resource metadata: each service's MCP endpoint is its own protected
 * resource, and its document says which authorization server issues tokens for it and with
 * which scopes.
 */

/** An hour: the document changes only with the connector's address or its scopes. */
export const RESOURCE_METADATA_CACHE = 'public, max-age=3600'

export const resourceMetadataPath = (service: ServiceName) =>
  `/.well-known/oauth-protected-resource/${service}/mcp`

export const resourceMetadataUrl = (publicUrl: string, service: ServiceName) =>
  publicUrl + resourceMetadataPath(service)

export function resourceMetadata(publicUrl: string, service: ServiceName) {
  const info = SERVICES[service]
  return {
    resource: resourceOf(publicUrl, service),
    authorization_servers: [publicUrl],
    scopes_supported: info.scopes.map((scope) => scope.name),
    bearer_methods_supported: ['header'],
    resource_name: `Countersign: ${info.title}`,
  }
}
