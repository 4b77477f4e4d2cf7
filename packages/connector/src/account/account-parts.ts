import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import type { ClientDirectory } from '../auth/clients.js'
import type { CoverageSeal } from '../auth/coverage.js'
import type { Grants } from '../auth/grants.js'
import type { FormPurposes } from '../auth/keys.js'
import type { Offers } from '../auth/offer.js'
import type { ConnectorConfig } from '../config/config.js'
import type { PushDevices } from '../push/devices.js'
import type { PushPolicy } from '../push/subscriptions.js'
import type { PersonSessions } from './sessions.js'
import type { UpstreamSignIn } from './sign-in.js'

/**
 * What the person's own page, `/connections` (routes.ts), reads of the connector: fields of its
 * parts (connector/parts.ts), which are passed whole.
 */
export interface AccountParts {
  config: Pick<ConnectorConfig, 'publicUrl'>
  provider: Provider
  grants: Grants
  /** What each grant covers, sealed. */
  coverage: CoverageSeal
  /** The person's lists, sites or properties, read live to change what a grant covers. */
  offers: Offers
  upstream: UpstreamSignIn
  /** The person's sessions on the connector's pages, which every page of theirs shares. */
  sessions: PersonSessions
  /** The assistants by name. */
  clients: ClientDirectory
  forms: Pick<FormPurposes, 'connections'>
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
  /** The person's devices that show notifications (src/push); unset, none are offered. */
  push?: AccountPush
}

export interface AccountPush {
  devices: PushDevices
  /** The server's VAPID public key, which subscriptions are made for. */
  publicKey: string
  /** Which push services a subscription may name. */
  policy: PushPolicy
}
