import type { ServerContext } from '@modelcontextprotocol/server'
import { withOneMore, type Coverage, type CoverageSeal } from '../auth/coverage.js'
import type { GrantLink, Grants } from '../auth/grants.js'
import { SERVICES } from '../services/catalog.js'
import { CredentialRevokedError, type ApiGrant } from '../upstream/index.js'
import type { SealedCredential } from '../vault/credentials.js'

/**
 * A request's way to the provider: the upstream access token of the grant its bearer token
 * belongs to. When the provider says the credential is revoked (the person disconnected the app
 * on the provider's side), every grant acting with it ends at once, and the request is answered
 * 401 invalid_token with a message to reconnect (see endpoint.ts).
 */

export class GrantRevokedError extends Error {
  override name = 'GrantRevokedError'
}

/** What a request needs of the upstream client. */
export interface UpstreamTokens {
  accessToken(credentialId: string, read?: SealedCredential): Promise<string>
  afterUnauthorized(credentialId: string, rejectedToken: string): Promise<string>
}

/**
 * What the host is told, in the 401's error_description: plain ASCII, as a header carries it. A
 * connection that most likely ran out in Testing mode says so, and what ends it for good.
 */
function reconnectMessage(link: Pick<GrantLink, 'service'>, error: CredentialRevokedError) {
  const service = SERVICES[link.service].title
  const days = error.testingTokenDays
  if (days === undefined)
    return `The connection to ${service} was revoked at the provider: connect the service again.`
  return `Google ended the connection to ${service}, most likely because the connector's app is in Testing mode in Google Auth Platform, where Google ends each connection ${days} days after it was made: connect the service again. The connector's operator can stop this by publishing the app (Google Auth Platform > Audience > Publish app).`
}

/** The grant a tool call runs as: its id binds approvals; it reads from the provider. */
export interface ToolGrant extends ApiGrant {
  readonly link: { readonly grantId: string }
  /** What the grant covers of the person's lists, sites or properties, as read with the token. */
  readonly coverage: Coverage
  /** What it covers now, read again (after a wait for the person, when a change is to run). */
  coverageNow(): Promise<Coverage>
  /** A list the assistant made joins a grant of chosen ones; a grant of every one is left. */
  join(id: string): Promise<void>
  /**
   * The database could not be reached during a call, before anything was sent to the provider:
   * the request is then answered 503 (endpoint.ts).
   */
  endForStoreAway(error: unknown): void
}

/**
 * How a request must end whatever its JSON-RPC answer says, once a call found out: the provider
 * revoked the credential (401, to connect again), or the database went away (503, to retry).
 * The first end found holds.
 */
export type RequestEnd =
  { kind: 'revoked'; error: GrantRevokedError } | { kind: 'store_away'; error: unknown }

/** What a request's grant needs of the grants. */
export type GrantRecords = Pick<Grants, 'endGrantsOfCredential' | 'linkOf' | 'cover'>

/** The request's grant, put into `authInfo.extra` by the endpoint after authentication. */
export const grantOf = (ctx: ServerContext) =>
  ctx.http?.authInfo?.extra?.grant as ToolGrant | undefined

export class RequestGrant {
  #end: RequestEnd | undefined
  /** The credential's row as read with the token, for the first upstream call only. */
  #read: SealedCredential | undefined

  /** How the request must end, once a call found out (RequestEnd); undefined while none did. */
  get end(): RequestEnd | undefined {
    return this.#end
  }

  endForStoreAway(error: unknown): void {
    this.#end ??= { kind: 'store_away', error }
  }

  /** The person, as the provider knows them: whose calls these are (upstream/api/policy.ts). */
  get person(): string {
    return this.link.account
  }

  readonly coverage: Coverage

  constructor(
    readonly link: GrantLink,
    private readonly upstream: UpstreamTokens,
    private readonly grants: GrantRecords,
    private readonly seal: CoverageSeal,
    read?: SealedCredential,
  ) {
    this.#read = read
    this.coverage = seal.open(link.grantId, link.coverage)
  }

  async coverageNow(): Promise<Coverage> {
    const now = await this.grants.linkOf(this.link.grantId)
    // Ended meanwhile: it covers nothing any more.
    return now ? this.seal.open(now.grantId, now.coverage) : { all: false, ids: new Set() }
  }

  async join(id: string): Promise<void> {
    // Compare-and-set: a change on the connections page may land at the same moment.
    for (let tries = 0; tries < 5; tries++) {
      const now = await this.grants.linkOf(this.link.grantId)
      if (!now) return
      const coverage = this.seal.open(now.grantId, now.coverage)
      if (coverage.all) return
      const next = this.seal.seal(now.grantId, withOneMore(coverage, id))
      if (await this.grants.cover(now.grantId, next, now.coverage)) return
    }
    throw new Error('the grant’s coverage kept changing: the new list did not join it')
  }

  /**
   * A valid upstream access token for this grant (refreshed when due). The first comes from the
   * credential read with the token; a later call of the same request (an approval's reads, then
   * the change) reads the credential again.
   */
  upstreamAccessToken(): Promise<string> {
    const read = this.#read
    this.#read = undefined
    return this.guard(() => this.upstream.accessToken(this.link.credentialId, read))
  }

  /** After the provider answered 401 to `rejectedToken`: the token to try once more with. */
  upstreamTokenAfterUnauthorized(rejectedToken: string): Promise<string> {
    return this.guard(() => this.upstream.afterUnauthorized(this.link.credentialId, rejectedToken))
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof CredentialRevokedError)) throw error
      await this.grants.endGrantsOfCredential(error.credentialId)
      const revoked = new GrantRevokedError(reconnectMessage(this.link, error), { cause: error })
      this.#end ??= { kind: 'revoked', error: revoked }
      throw revoked
    }
  }
}
