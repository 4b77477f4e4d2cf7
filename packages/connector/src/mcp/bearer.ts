import type { AuthInfo } from '@modelcontextprotocol/server'
import type { AccessTokens } from '../auth/access-tokens.js'
import type { CoverageSeal } from '../auth/coverage.js'
import { resourceOf } from '../auth/resources.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { RequestGrant, type GrantRecords, type UpstreamTokens } from './grant-access.js'
import { resourceMetadataUrl } from './resource-metadata.js'

/**
 * Bearer authentication of the MCP endpoints (RFC 6750, with RFC 9728's resource_metadata).
 *
 * A token is looked up by its hash on every request, with its grant and credential in the same
 * read and no cache, so a revoked token stops working at once (auth/access-tokens.ts). It must be
 * for this very endpoint (its audience), and its grant must still exist. A request without a
 * token gets the bare challenge; one with a token that fails gets `invalid_token`; one whose
 * token lacks the needed scope gets 403 `insufficient_scope` naming it.
 */

export type Authentication =
  { ok: true; grant: RequestGrant; authInfo: AuthInfo } | { ok: false; response: Response }

export interface BearerDeps {
  publicUrl: string
  tokens: AccessTokens
  grants: GrantRecords
  upstream: UpstreamTokens
  /** Opens what a grant covers, stored with its link. */
  coverage: CoverageSeal
}

export class McpAuthenticator {
  constructor(private readonly deps: BearerDeps) {}

  /** Authenticates a request to `service`'s endpoint; `scope` is what the request needs. */
  async authenticate(
    request: Request,
    service: ServiceName,
    scope = SERVICES[service].readScope,
  ): Promise<Authentication> {
    const challenge = new Challenge(this.deps.publicUrl, service)
    const header = request.headers.get('authorization')
    if (header === null) return { ok: false, response: challenge.unauthenticated() }
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header)
    if (!match)
      return {
        ok: false,
        response: challenge.invalidToken('send the token as "Authorization: Bearer <token>"'),
      }

    const token = await this.deps.tokens.find(match[1]!)
    if (!token) {
      return {
        ok: false,
        response: challenge.invalidToken('the access token is unknown, expired or revoked'),
      }
    }
    const resource = resourceOf(this.deps.publicUrl, service)
    if (token.audience.length !== 1 || token.audience[0] !== resource) {
      return {
        ok: false,
        response: challenge.invalidToken(`the access token was not issued for ${resource}`),
      }
    }
    const { link, scopes } = token
    if (!link || link.service !== service || link.clientId !== token.clientId) {
      return { ok: false, response: challenge.invalidToken('the grant of this token has ended') }
    }
    if (!grantsScope(service, scopes, scope)) {
      return { ok: false, response: challenge.insufficientScope(scope) }
    }
    return {
      ok: true,
      grant: new RequestGrant(
        link,
        this.deps.upstream,
        this.deps.grants,
        this.deps.coverage,
        token.credential,
      ),
      authInfo: {
        token: match[1]!,
        clientId: token.clientId,
        scopes,
        expiresAt: token.expiresAt,
        resource: new URL(resource),
        resourceMetadataUrl: resourceMetadataUrl(this.deps.publicUrl, service),
      },
    }
  }

  /** The 403 for a request (a tool call, say) that needs a scope its token lacks. */
  insufficientScope(service: ServiceName, scope: string): Response {
    return new Challenge(this.deps.publicUrl, service).insufficientScope(scope)
  }

  /** The 401 for a token whose grant ended during the request. */
  grantEnded(service: ServiceName, description: string): Response {
    return new Challenge(this.deps.publicUrl, service).invalidToken(description)
  }
}

/**
 * Whether holding `scopes` covers `needed`. Every scope of a service includes its read scope
 * (the full `tasks` lets one read as well as `tasks.readonly` does).
 */
export function grantsScope(service: ServiceName, scopes: readonly string[], needed: string) {
  if (scopes.includes(needed)) return true
  const own = SERVICES[service].scopes.map((s) => s.name)
  return needed === SERVICES[service].readScope && scopes.some((scope) => own.includes(scope))
}

/** The WWW-Authenticate challenges of one endpoint. */
class Challenge {
  readonly #metadata: string

  constructor(publicUrl: string, service: ServiceName) {
    this.#metadata = resourceMetadataUrl(publicUrl, service)
  }

  unauthenticated(): Response {
    // No error code when no token was sent (RFC 6750 §3.1): the client just has to get one.
    return this.#answer(401, `Bearer resource_metadata="${this.#metadata}"`, {
      error_description: 'This endpoint needs an access token: see its resource metadata.',
    })
  }

  invalidToken(description: string): Response {
    return this.#answer(
      401,
      `Bearer error="invalid_token", error_description="${quoted(description)}", resource_metadata="${this.#metadata}"`,
      { error: 'invalid_token', error_description: description },
    )
  }

  insufficientScope(scope: string): Response {
    const description = `this needs the "${scope}" permission`
    return this.#answer(
      403,
      `Bearer error="insufficient_scope", scope="${quoted(scope)}", error_description="${quoted(description)}", resource_metadata="${this.#metadata}"`,
      { error: 'insufficient_scope', error_description: description, scope },
    )
  }

  #answer(status: number, challenge: string, body: Record<string, string>): Response {
    return new Response(JSON.stringify(body), {
      status,
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'WWW-Authenticate': challenge,
      },
    })
  }
}

/** A quoted-string value of an auth-param: no quotes or backslashes inside. */
const quoted = (value: string) => value.replace(/["\\]/g, "'")
