import { expect, it } from 'vitest'
import { AuditTrail } from '../../src/approval/audit.js'
import { databaseProxy } from '../support/database-proxy.js'
import { describeOnPostgres } from '../support/engines.js'

/**
 * The trail while PostgreSQL is away (src/approval/audit.ts): an event is kept, in order and with
 * when it happened, and written once the database is back, so that a change made meanwhile is
 * recorded as made; a fault that is not the database's absence is still a failure.
 */

describeOnPostgres('the audit trail while the database is away', (engine) => {
  it('keeps what happened, and writes it at its own time once the database is back', async () => {
    const { databaseUrl, dataDir } = await engine.location()
    const direct = await engine.openStore()
    const proxy = await databaseProxy(databaseUrl!)
    const through = await engine.openStore({ databaseUrl: proxy.databaseUrl, dataDir })
    let clock = 1_000_000
    const trail = new AuditTrail(through, () => clock)
    const rows = () =>
      direct.db
        .selectFrom('audit_events')
        .select(['tool', 'decision', 'at', 'upstream_status'])
        .where('grant_id', '=', 'grant-away')
        .orderBy('at')
        .execute()
    try {
      proxy.down('refuse')
      await trail.record({ grantId: 'grant-away', tool: 'delete_task', decision: 'approved' })
      clock += 5_000
      await trail.record({
        grantId: 'grant-away',
        tool: 'delete_task',
        decision: 'executed',
        upstreamStatus: 204,
      })
      expect(trail.waiting).toBe(2)
      expect(await rows()).toEqual([])

      await trail.flush()
      expect(trail.waiting).toBe(2)

      proxy.up()
      clock += 60_000
      await trail.flush()
      expect(trail.waiting).toBe(0)
      expect(await rows()).toEqual([
        { tool: 'delete_task', decision: 'approved', at: 1_000_000, upstream_status: null },
        { tool: 'delete_task', decision: 'executed', at: 1_005_000, upstream_status: 204 },
      ])
    } finally {
      proxy.up()
      await through.close()
      await proxy.close()
    }
  })

  it('does not keep an event the database refused for a reason of its own', async () => {
    const store = await engine.openStore()
    const trail = new AuditTrail(store)
    // A status past the column's range is refused by the database, which is there.
    await expect(
      trail.record({
        grantId: 'g',
        tool: 'delete_task',
        decision: 'failed',
        upstreamStatus: 2 ** 40,
      }),
    ).rejects.toThrow(/out of range/)
    expect(trail.waiting).toBe(0)
  })
})
