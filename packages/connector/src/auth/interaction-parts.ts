import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import type { ConnectorConfig } from '../config/config.js'
import type { ServiceName } from '../services/catalog.js'
import type { CompletedAuthorization, CompletedSignIn } from '../upstream/index.js'
import type { GrantChoices } from './choices.js'
import type { CoverageSeal } from './coverage.js'
import type { Grants } from './grants.js'
import type { FormPurposes } from './keys.js'
import type { Offers } from './offer.js'

/** The routes run on Node: oidc-provider reads the request and writes the response itself. */
export type InteractionEnv = { Bindings: HttpBindings }

/** What the routes need of the upstream client. */
export interface UpstreamAuthorizer {
  begin(request: { interactionUid: string; service: ServiceName; scopes: string[] }): Promise<URL>
  complete(callbackUrl: URL): Promise<CompletedAuthorization>
  kindOf(callbackUrl: URL): Promise<'authorization' | 'sign-in' | undefined>
  completeSignIn(callbackUrl: URL): Promise<CompletedSignIn>
}

/**
 * What the person's part of an authorization (interaction.ts) reads of the connector: fields of
 * its parts (connector/parts.ts), which are passed whole.
 */
export interface InteractionParts {
  config: Pick<ConnectorConfig, 'publicUrl'>
  provider: Provider
  upstream: UpstreamAuthorizer
  grants: Grants
  /** The credential of each authorization whose coverage the person is choosing. */
  choices: GrantChoices
  /** The person's lists, sites or properties, read live for the choice. */
  offers: Offers
  /** Seals what a new grant covers. */
  coverage: CoverageSeal
  /** CSRF tokens of the consent form, and the callback's browser binding. */
  forms: Pick<FormPurposes, 'consent'>
  log: Logger
}

/**
 * A sign-in to the connector's own pages came back (upstream.kindOf says 'sign-in'): the pages
 * that start one (account/) finish it. Without it such a callback is refused.
 */
export type SignInReturn = (c: Context<InteractionEnv>, callbackUrl: URL) => Promise<Response>
