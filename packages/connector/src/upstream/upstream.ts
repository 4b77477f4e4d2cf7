import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { UpstreamConfig } from '../config/config.js'
import type { ServiceName } from '../services/catalog.js'
import { PROFILES } from '../services/profiles/index.js'
import type { Store } from '../store/open.js'
import { UpstreamCredentials, type SealedCredential } from '../vault/credentials.js'
import type { Vault } from '../vault/vault.js'
import {
  beginAuthorization,
  completeAuthorization,
  type AuthorizationDeps,
  type CompletedAuthorization,
} from './authorization.js'
import { DEFAULT_DEADLINE_MS, OAuthClient } from './oauth-client.js'
import { PendingAuthorizations, type CallbackKind } from './pending.js'
import type { UpstreamEvents } from './refresh-events.js'
import { TokenRefresher } from './refresh.js'
import { revokeAndErase, type DisconnectDeps } from './revocation.js'
import { beginSignIn, completeSignIn, type CompletedSignIn } from './sign-in.js'
import { StoredTokenSets } from './stored-token-set.js'
import { redirectUriOf } from './redirect-uri.js'

export interface UpstreamDeps {
  config: UpstreamConfig
  /** The connector's external origin. */
  publicUrl: string
  store: Store
  vault: Vault
  log: Logger
  fetch?: typeof fetch
  /** How long any one call to the provider may take; 10 s unless told. */
  deadlineMs?: number
}

/** The connector as an OAuth client of the provider, and the life of its upstream credentials. */
export class Upstream {
  /** `${publicUrl}/upstream/callback`: the connector's redirect URI at the provider. */
  readonly redirectUri: string
  /** Each renewal of an upstream token, told as it ends (refresh-events.ts). */
  readonly events = new EventEmitter<UpstreamEvents>()
  readonly #pending: PendingAuthorizations
  readonly #authorization: AuthorizationDeps
  readonly #disconnect: DisconnectDeps
  readonly #refresher: TokenRefresher

  constructor({ config, publicUrl, store, vault, log, fetch, deadlineMs }: UpstreamDeps) {
    this.redirectUri = redirectUriOf(publicUrl)
    const deadline = deadlineMs ?? DEFAULT_DEADLINE_MS
    const client = new OAuthClient({
      config,
      redirectUri: this.redirectUri,
      deadlineMs: deadline,
      fetch,
    })
    const credentials = new UpstreamCredentials(store, vault)
    const tokenSets = new StoredTokenSets(store, vault, credentials)
    const upstreamLog = log.child({ component: 'upstream' })
    const { revocation, testingMode } = PROFILES[config.profile]
    this.#pending = new PendingAuthorizations(store, vault)
    this.#authorization = {
      config,
      client,
      pending: this.#pending,
      credentials,
      revocation,
      testingMode,
      log: upstreamLog,
    }
    this.#disconnect = { client, tokenSets, credentials, revocation, log: upstreamLog }
    this.#refresher = new TokenRefresher({
      client,
      tokenSets,
      credentials,
      log: upstreamLog,
      deadlineMs: deadline,
      revokeAndErase: (id) => this.revokeAndErase(id),
      events: this.events,
      testingMode,
    })
  }

  /** Starts the provider's authorization for a pending connector authorization: the URL to send the browser to. */
  begin(pending: { interactionUid: string; service: ServiceName; scopes: string[] }): Promise<URL> {
    return beginAuthorization(this.#authorization, pending)
  }

  /** Completes it from the callback URL; throws UpstreamAuthorizationError for the person to read. */
  complete(callbackUrl: URL): Promise<CompletedAuthorization> {
    return completeAuthorization(this.#authorization, callbackUrl)
  }

  /**
   * Which of `complete` and `completeSignIn` the callback URL is for, without using its state up;
   * undefined when the state is missing or unknown (either then throws 'invalid_state').
   */
  async kindOf(callbackUrl: URL): Promise<CallbackKind | undefined> {
    const states = callbackUrl.searchParams.getAll('state')
    return states.length === 1 && states[0] ? this.#pending.kindOf(states[0]) : undefined
  }

  /**
   * A valid access token, refreshed when expired or within 60 s of expiry (one refresh for all
   * callers); from `read`, the credential's row, when the caller has just read it.
   */
  accessToken(credentialId: string, read?: SealedCredential): Promise<string> {
    return this.#refresher.accessToken(credentialId, read)
  }

  /** After a 401 to a call made with `rejectedToken`: the token to try once more with. */
  afterUnauthorized(credentialId: string, rejectedToken: string): Promise<string> {
    return this.#refresher.afterUnauthorized(credentialId, rejectedToken)
  }

  /** Erases the credential and revokes it at the provider; a provider failure is logged, never thrown. */
  revokeAndErase(credentialId: string): Promise<void> {
    return revokeAndErase(this.#disconnect, credentialId)
  }

  /** Identity only, for the connector's own pages; `returnTo` is a path on the connector. */
  beginSignIn(returnTo: string): Promise<URL> {
    return beginSignIn(this.#authorization, returnTo)
  }

  completeSignIn(callbackUrl: URL): Promise<CompletedSignIn> {
    return completeSignIn(this.#authorization, callbackUrl)
  }
}
