import type { ConnectorHarness } from '../support/connector.js'
import { providerRequests } from '../support/provider-log.js'

/**
 * A person's tasks seeded directly at the provider, and the provider's request log: what the
 * tool tests set up and what they check was (or was not) sent upstream.
 */
export function taskFixtures(
  suite: Pick<ConnectorHarness, 'sandboxRequest' | 'profile'> &
    Partial<Pick<ConnectorHarness, 'store'>>,
) {
  const google = suite.profile === 'google'
  const fixtures = {
    /**
     * The provider's answer to a delete: the generic provider's 200, Google's 204 (both without a
     * body).
     */
    deleteStatus: google ? 204 : 200,

    /**
     * The audit of an approved change whose task changed since: the generic provider refuses it
     * (412); at Google the connector's own re-read refuses it before anything is sent.
     */
    staleChange: (tool: string) => (google ? `failed ${tool}` : `failed ${tool} 412`),

    /** A sandbox access token of the person's own, to seed and read their data at the provider. */
    async providerToken(user: string) {
      const res = await suite.sandboxRequest('POST', '/_sandbox/tokens', {
        json: { user, scopes: ['tasks'] },
      })
      return res.body.access_token as string
    },

    /** A list titled `title` with tasks "Task 1".."Task n", in that order. */
    async seed(user: string, tasks: number, title = 'Groceries') {
      const token = await fixtures.providerToken(user)
      const list = await suite.sandboxRequest('POST', '/tasks/v1/lists', {
        token,
        json: { title },
      })
      const ids: string[] = []
      // Each new task goes first: create them in reverse for a list in this order.
      for (let i = tasks; i >= 1; i--) {
        const res = await suite.sandboxRequest('POST', `/tasks/v1/lists/${list.body.id}/tasks`, {
          token,
          json: { title: `Task ${i}` },
        })
        ids.unshift(res.body.id)
      }
      return { tasklist: list.body.id as string, ids, providerToken: token }
    },

    /** The audit trail of a grant's changes, oldest first: "decision tool status". */
    async auditOf(grantId: string) {
      if (!suite.store) throw new Error('no store to read the audit trail from')
      const rows = await suite.store.db
        .selectFrom('audit_events')
        .select(['decision', 'tool', 'upstream_status'])
        .where('grant_id', '=', grantId)
        .orderBy('at')
        .execute()
      return rows.map((r) =>
        [r.decision, r.tool, r.upstream_status].filter((x) => x !== null).join(' '),
      )
    },

    /** The task API calls the sandbox received since `from` (an index into its request log). */
    upstreamCalls: (from = 0) => providerRequests(suite, 'tasks', from),
  }
  return fixtures
}
