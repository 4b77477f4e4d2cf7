import { errors } from 'oidc-provider'
import { acceptClientScope } from './client-scope.js'
import { validateRedirectUris } from './redirect-uris.js'

/**
 * What the connector takes of a client's metadata, in a registration (RFC 7591) or a client ID
 * metadata document, before oidc-provider's own checks: oidc-provider's `extraClientMetadata`
 * calls `checkClientField` for each field of `CHECKED_FIELDS`, and may be changed by it.
 */

/** The grant types a client can use here; any other a client lists is left out. */
const GRANT_TYPES = ['authorization_code', 'refresh_token']

/**
 * Optional fields that clients send empty (`"client_uri": ""`, `"logo_uri": ""`: mcp-use does, and
 * so does a registration of Claude Code's): an empty one is taken as absent, where oidc-provider
 * would refuse the whole registration for a URI that is not one.
 */
const EMPTY_MEANS_ABSENT = ['client_name', 'client_uri', 'logo_uri', 'policy_uri', 'tos_uri']

export const CHECKED_FIELDS = [
  'redirect_uris',
  'scope',
  'grant_types',
  'jwks_uri',
  ...EMPTY_MEANS_ABSENT,
]

export function checkClientField(key: string, value: unknown, metadata: Record<string, unknown>) {
  if (EMPTY_MEANS_ABSENT.includes(key) && value === '') {
    delete metadata[key]
    return
  }
  switch (key) {
    case 'redirect_uris':
      return validateRedirectUris(value)
    case 'scope':
      return acceptClientScope(metadata)
    case 'grant_types':
      return keepKnownGrantTypes(value, metadata)
    case 'jwks_uri':
      return validateJwksUri(value)
  }
}

/**
 * A client may list grants this server does not offer (VS Code's document lists the device code
 * grant beside the code and refresh grants): it is registered with those it can use, as RFC 7591
 * §3.2.1 lets a server do, rather than refused. With none of them left, oidc-provider refuses.
 */
function keepKnownGrantTypes(value: unknown, metadata: Record<string, unknown>) {
  if (!Array.isArray(value)) return
  const known = value.filter((grant) => GRANT_TYPES.includes(grant as string))
  if (known.length > 0) metadata.grant_types = known
}

/**
 * The keys of a client that signs its token requests (private_key_jwt) are fetched from its
 * `jwks_uri` under the guard of client metadata documents (client-metadata-fetch.ts): https only,
 * here in a registration as oidc-provider already requires in a document.
 */
function validateJwksUri(value: unknown) {
  if (value === undefined) return
  const url = typeof value === 'string' ? URL.parse(value) : null
  if (url?.protocol !== 'https:') {
    throw new errors.InvalidClientMetadata('jwks_uri must be an https URL')
  }
}
