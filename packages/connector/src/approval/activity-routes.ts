import type { Hono } from 'hono'
import { ACTIVITY_PATH, activityPage } from '../pages/activity-page.js'
import { connectionNames } from '../pages/connection-names.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { toolDefinition } from '../services/tools.js'
import { activityOf } from './activity.js'
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../config/config.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { signedOut, type ApprovalSignIns } from './sign-in-routes.js'

/**
 *   GET  /activity                what the person's assistants asked to change, and what became of it
 */

/** The activity page lists at most this many of the person's latest events. */
const ACTIVITY_EVENTS = 500

export function activityRoutes(app: Hono, parts: ApprovalPagesParts, signIns: ApprovalSignIns) {
  app.get(ACTIVITY_PATH, async (c) => {
    const session = await parts.sessions.current(c)
    if (!session) return signedOut(parts, c, signIns.activity)
    const nameOf = parts.clients.namer()
    const entries = activityOf(await parts.audit.ofPerson(session.subject, ACTIVITY_EVENTS))
    const links = await parts.grants.linksOfAccount(session.subject)
    const connections = connectionNames(
      await Promise.all(
        links.map(async (link) => ({
          grantId: link.grantId,
          clientName: await nameOf(link.clientId),
          since: link.createdAt,
          returnsTo: link.returnsTo,
        })),
      ),
    )
    const rows = await Promise.all(
      entries.map(async (entry) => {
        const service = entry.service as ServiceName | null
        return {
          ...entry,
          clientName:
            connections.get(entry.grantId) ??
            (entry.clientId ? await nameOf(entry.clientId) : 'An assistant'),
          serviceTitle: (service && SERVICES[service]?.title) ?? 'a service',
          toolTitle: toolDefinition(service, entry.tool)?.title ?? entry.tool,
        }
      }),
    )
    return activityPage(c, {
      subject: session.subject,
      rows,
      retentionDays: parts.config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    })
  })
}
