/**
 * The part of oidc-provider (9.x, shipped without types) that the connector uses. Kept narrow on
 * purpose: what is declared here is what the rest of src/ may rely on.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export type AdapterPayload = Record<string, unknown> & {
    jti?: string
    grantId?: string
    uid?: string
    userCode?: string
    consumed?: unknown
    client_secret?: string
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export type AdapterFactory = (name: string) => Adapter

  /** Koa's context, as far as hooks read it. */
  export interface KoaContextWithOIDC {
    oidc: OIDCContext
    /** Koa's per-request state: what the connector's own middleware hands on. */
    state: Record<string, unknown>
    method: string
    path: string
    status: number
    body: unknown
    ip: string
    get(header: string): string
    set(header: string, value: string): void
  }

  export interface OIDCContext {
    route: string
    params?: Record<string, unknown>
    client?: Client
    session?: { accountId?: string; uid?: string }
    result?: InteractionResults
    entities: Record<string, unknown>
  }

  export interface Client {
    clientId: string
    clientName?: string
    clientSecret?: string
    redirectUris: string[]
    applicationType: 'web' | 'native'
    clientAuthMethod: string
    grantTypeAllowed(type: string): boolean
    redirectUriAllowed(value: string): boolean
    compareClientSecret(actual: string): boolean | Promise<boolean>
    metadata(): Record<string, unknown>
  }

  export interface ClientStatic {
    find(id: string): Promise<Client | undefined>
    prototype: Client
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean }
    consent?: { grantId?: string }
    error?: string
    error_description?: string
    [key: string]: unknown
  }

  export interface Interaction {
    uid: string
    jti: string
    exp: number
    params: Record<string, unknown>
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> }
    session?: { accountId: string; uid?: string }
    returnTo: string
    result?: InteractionResults
    lastSubmission?: InteractionResults
    grantId?: string
    save(ttl: number): Promise<string>
    destroy(): Promise<void>
  }

  export interface InteractionStatic {
    find(id: string): Promise<Interaction | undefined>
  }

  export interface Grant {
    jti: string
    accountId: string
    clientId: string
    addResourceScope(resource: string, scope: string): void
    getResourceScopeEncountered(resource: string): string
    save(): Promise<string>
    destroy(): Promise<void>
  }

  export interface GrantStatic {
    new (properties: { accountId: string; clientId: string }): Grant
    find(id: string): Promise<Grant | undefined>
  }

  export interface AccessToken {
    jti: string
    accountId: string
    clientId: string
    grantId: string
    scope?: string
    aud?: string | string[]
    exp: number
    isExpired: boolean
    scopes: Set<string>
  }

  export interface AccessTokenStatic {
    find(value: string): Promise<AccessToken | undefined>
  }

  export interface ResourceServerInfo {
    scope: string
    audience?: string
    accessTokenTTL?: number
    accessTokenFormat?: 'opaque' | 'jwt'
  }

  export type FetchHook = (
    url: URL | string,
    options: RequestInit & { dispatcher?: unknown },
  ) => Promise<Response>

  export interface Configuration {
    [key: string]: unknown
  }

  export interface ReplayDetectionStatic {
    unique(iss: string, jti: string, exp: number): Promise<boolean>
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration)
    issuer: string
    proxy: boolean
    readonly Client: ClientStatic
    readonly Grant: GrantStatic
    readonly Interaction: InteractionStatic
    readonly AccessToken: AccessTokenStatic
    readonly ReplayDetection: ReplayDetectionStatic
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void
    on(event: string, listener: (...args: never[]) => void): this
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>
  }

  export class OIDCProviderError extends Error {
    constructor(status: number, message: string)
    error: string
    error_description?: string
    status: number
    statusCode: number
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError
    /** Its description is fixed; assign error_description to change it. */
    InvalidGrant: new () => OIDCProviderError
    InvalidTarget: new (description?: string) => OIDCProviderError
    InvalidScope: new (description: string, scope?: string) => OIDCProviderError
    /** A description starting with "redirect_uris" gives invalid_redirect_uri. */
    InvalidClientMetadata: new (description: string) => OIDCProviderError
    InvalidRequest: new (description?: string) => OIDCProviderError
    InvalidClient: new (description?: string) => OIDCProviderError
    InvalidClientAuth: new (description?: string) => OIDCProviderError
    AccessDenied: new (description?: string) => OIDCProviderError
  }

  export default Provider
}
