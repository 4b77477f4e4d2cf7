import type { Logger } from 'pino'
import type { PersonSession, PersonSessions } from '../account/sessions.js'
import type { NotificationsOffer } from '../pages/devices-section.js'
import type { SignIn } from '../account/sign-in.js'
import type { ClientDirectory } from '../auth/clients.js'
import type { Grants } from '../auth/grants.js'
import type { FormTokens } from '../auth/keys.js'
import type { AuditTrail } from './audit.js'
import type { Approvals } from './gate.js'

/** What the approval and activity pages' routes (routes.ts) need of the connector. */
export interface ApprovalRoutesDeps {
  approvals: Approvals
  audit: Pick<AuditTrail, 'ofPerson'>
  /** How long the audit trail is kept, for the activity page to say. */
  retentionDays: number
  publicUrl: string
  /** For the assistants' names. */
  clients: ClientDirectory
  /** The person's connections, to tell apart two of one assistant. */
  grants: Pick<Grants, 'linksOfAccount'>
  /** The connections page's sessions, and its sign-in for a page of the connector. */
  sessions: PersonSessions
  signInFor(pagePath: string): SignIn
  /** The decision forms' CSRF tokens. */
  formTokens: FormTokens
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
  /** The button that turns notifications on (account/routes.ts); undefined without push. */
  notificationsOffer?: (session: PersonSession) => NotificationsOffer | undefined
}
