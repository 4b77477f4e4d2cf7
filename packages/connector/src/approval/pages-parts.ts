import type { Logger } from 'pino'
import type { AccountPush } from '../account/account-parts.js'
import type { PersonSessions } from '../account/sessions.js'
import type { UpstreamSignIn } from '../account/sign-in.js'
import type { ClientDirectory } from '../auth/clients.js'
import type { Grants } from '../auth/grants.js'
import type { FormPurposes } from '../auth/keys.js'
import type { ConnectorConfig } from '../config/config.js'
import type { AuditTrail } from './audit.js'
import type { Approvals } from './gate.js'

/**
 * What the approval and activity pages (routes.ts) read of the connector: fields of its parts
 * (connector/parts.ts), which are passed whole.
 */
export interface ApprovalPagesParts {
  /** `auditRetentionDays`: how long the audit trail is kept, for the activity page to say. */
  config: Pick<ConnectorConfig, 'publicUrl' | 'auditRetentionDays'>
  approvals: Approvals
  audit: Pick<AuditTrail, 'ofPerson'>
  /** For the assistants' names. */
  clients: ClientDirectory
  /** The person's connections, to tell apart two of one assistant. */
  grants: Pick<Grants, 'linksOfAccount'>
  /** The connections page's sessions; its sign-in (account/) starts one for these pages too. */
  sessions: PersonSessions
  upstream: UpstreamSignIn
  /** The decision forms' CSRF tokens, and the sign-in's and notification button's (account/). */
  forms: Pick<FormPurposes, 'approval' | 'connections'>
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
  /** The person's devices (src/push), offered from the approval pages too; unset, not offered. */
  push?: AccountPush
}
