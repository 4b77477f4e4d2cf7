import { randomBytes } from 'node:crypto'
import pino from 'pino'
import { expect, it } from 'vitest'
import { AuditTrail } from '../../src/approval/audit.js'
import { approvalKey } from '../../src/approval/digest.js'
import { APPROVAL_TTL_MS, Approvals, type ApprovalRequest } from '../../src/approval/gate.js'
import { KEPT_AFTER_EXPIRY_MS } from '../../src/approval/store.js'
import { Grants } from '../../src/auth/grants.js'
import type { Store } from '../../src/store/open.js'
import { Vault } from '../../src/vault/vault.js'
import { describeEachEngine } from '../support/engines.js'
import { dumpStore } from '../support/store-dump.js'

/**
 * The approval gate on its store, on both engines, with a clock the tests move: an approval is
 * bound to the grant, the tool and the call's canonical arguments, decided once by the grant's
 * person, used once, and expired after 10 minutes with what it held erased.
 */

const log = pino({ level: 'silent' })
const PUBLIC_URL = 'https://connector.example'
const START = Date.UTC(2026, 0, 15, 9, 0)

describeEachEngine('the approval gate', (engine) => {
  /** A fresh store with two grants of alice (two clients) and one of bob; a clock at START. */
  async function setUp() {
    const location = await engine.newLocation()
    const store = await engine.openStore(location)
    const vault = Vault.fromEnvironment({
      vaultKey: randomBytes(32).toString('base64'),
      dataDir: location.dataDir,
    }).vault
    const clock = { now: START }
    const approvals = new Approvals({
      store,
      vault,
      publicUrl: `${PUBLIC_URL}/`,
      log,
      now: () => clock.now,
    })
    for (const [grantId, account, clientId] of [
      ['grant-alice', 'alice', 'client-1'],
      ['grant-alice-other', 'alice', 'client-2'],
      ['grant-bob', 'bob', 'client-1'],
    ]) {
      await store.db
        .insertInto('grant_links')
        .values({
          grant_id: grantId!,
          credential_id: `credential-${account}`,
          account: account!,
          client_id: clientId!,
          service: 'tasks',
          created_at: START,
        })
        .execute()
    }
    return { location, store, vault, clock, approvals }
  }

  const deleteCall = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
    grantId: 'grant-alice',
    tool: 'delete_task',
    args: { tasklist: 'L1', task: 'T1' },
    description: {
      summary: 'Delete task "Buy milk" from list "Groceries"?',
      details: [
        { label: 'Task', value: '"Buy milk"' },
        { label: 'List', value: '"Groceries"' },
      ],
      ifMatch: '"etag-1"',
    },
    mode: 'per-call',
    ...overrides,
  })

  const auditOf = async (store: Store) =>
    (
      await store.db
        .selectFrom('audit_events')
        .select(['grant_id', 'tool', 'decision', 'upstream_status'])
        .orderBy('at')
        .execute()
    ).map((row) => `${row.decision} ${row.grant_id} ${row.tool}`)

  const rowOf = (store: Store, id: string) =>
    store.db
      .selectFrom('approvals')
      .selectAll()
      .where('id', '=', approvalKey(id))
      .executeTakeFirst()

  it('records a pending approval with its page, and hands out the same one for the same call', async () => {
    const { approvals, store } = await setUp()
    const first = await approvals.request(deleteCall())
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.url).toBe(`${PUBLIC_URL}/approvals/${first.id}`)
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'pending' })

    const again = await approvals.request(deleteCall({ args: { task: 'T1', tasklist: 'L1' } }))
    expect(again).toEqual(first)
    const other = await approvals.request(deleteCall({ args: { tasklist: 'L1', task: 'T2' } }))
    expect(other.id).not.toBe(first.id)
    expect(await store.db.selectFrom('approvals').select('id').execute()).toHaveLength(2)

    const view = await approvals.view(first.id)
    expect(view).toMatchObject({
      found: true,
      status: 'pending',
      tool: 'delete_task',
      mode: 'per-call',
      expiresAt: START + APPROVAL_TTL_MS,
      grant: { account: 'alice', clientId: 'client-1', service: 'tasks' },
      description: deleteCall().description,
    })
    expect(await approvals.view('not-an-id')).toEqual({ found: false })
  })

  it('approved by the grant\'s person: the same call goes through once, with the etag the person saw; then "used"', async () => {
    const { approvals, store } = await setUp()
    const { id } = await approvals.request(deleteCall())
    expect(await approvals.decide(id, 'approve', 'alice')).toEqual({
      ok: true,
      decision: 'approved',
    })
    // The same values in another key order are the same call.
    const used = await approvals.consume({
      grantId: 'grant-alice',
      tool: 'delete_task',
      args: { task: 'T1', tasklist: 'L1' },
    })
    expect(used).toEqual({ ok: true, ifMatch: '"etag-1"', approvalId: approvalKey(id) })
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'used' })
    expect(await approvals.decide(id, 'decline', 'alice')).toEqual({
      ok: false,
      reason: 'decided',
      decision: 'approved',
    })
    expect(await auditOf(store)).toEqual([
      'approved grant-alice delete_task',
      'replayed grant-alice delete_task',
    ])
    const row = await rowOf(store, id)
    expect(row).toMatchObject({ sealed_id: null, sealed_call: null, sealed_if_match: null })

    // Asking again for the same call is a new approval.
    const anew = await approvals.request(deleteCall())
    expect(anew.id).not.toBe(id)
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'pending' })
  })

  it('a call with other arguments, another tool or another grant does not match: "none"', async () => {
    const { approvals, store } = await setUp()
    const { id } = await approvals.request(deleteCall())
    await approvals.decide(id, 'approve', 'alice')
    for (const call of [
      { grantId: 'grant-alice', tool: 'delete_task', args: { tasklist: 'L1', task: 'T2' } },
      { grantId: 'grant-alice', tool: 'delete_task', args: { tasklist: 'L1', task: 'T1', x: 1 } },
      { grantId: 'grant-alice', tool: 'delete_task', args: { tasklist: 'L1' } },
      { grantId: 'grant-alice', tool: 'update_task', args: { tasklist: 'L1', task: 'T1' } },
      { grantId: 'grant-alice-other', tool: 'delete_task', args: { tasklist: 'L1', task: 'T1' } },
      { grantId: 'grant-bob', tool: 'delete_task', args: { tasklist: 'L1', task: 'T1' } },
    ]) {
      expect(await approvals.consume(call), JSON.stringify(call)).toEqual({
        ok: false,
        reason: 'none',
      })
    }
    // The approved call itself is still there, once.
    expect((await approvals.consume(deleteCall())).ok).toBe(true)
    // Three calls differed only in their arguments from the approval waiting for them.
    expect(await auditOf(store)).toEqual([
      'approved grant-alice delete_task',
      'mismatch grant-alice delete_task',
      'mismatch grant-alice delete_task',
      'mismatch grant-alice delete_task',
    ])
  })

  it('declined: the call is refused with "declined" once, and the decision is final', async () => {
    const { approvals, store } = await setUp()
    const { id } = await approvals.request(deleteCall())
    expect(await approvals.decide(id, 'decline', 'alice')).toEqual({
      ok: true,
      decision: 'declined',
    })
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'declined' })
    expect(await approvals.decide(id, 'approve', 'alice')).toEqual({
      ok: false,
      reason: 'decided',
      decision: 'declined',
    })
    // Told once: the same call again is one the person has not been asked about.
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'none' })
    expect(await rowOf(store, id)).toMatchObject({
      status: 'declined',
      sealed_id: null,
      sealed_call: null,
      sealed_if_match: null,
    })
    expect(await auditOf(store)).toEqual(['declined grant-alice delete_task'])
  })

  it("only the grant's person decides: another person's decision changes nothing", async () => {
    const { approvals, store } = await setUp()
    const { id } = await approvals.request(deleteCall())
    for (const decision of ['approve', 'decline'] as const) {
      expect(await approvals.decide(id, decision, 'bob')).toEqual({
        ok: false,
        reason: 'not yours',
      })
    }
    const unknown = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`
    expect(await approvals.decide(unknown, 'approve', 'alice')).toEqual({
      ok: false,
      reason: 'not found',
    })
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'pending' })
    expect((await rowOf(store, id))!.status).toBe('pending')
    expect(await auditOf(store)).toEqual([])
  })

  it('expires after 10 minutes: decisions and calls are told "expired", and what it held is erased', async () => {
    const { approvals, store, clock } = await setUp()
    const { id } = await approvals.request(deleteCall())
    const approved = await approvals.request(deleteCall({ args: { tasklist: 'L1', task: 'T9' } }))
    await approvals.decide(approved.id, 'approve', 'alice')

    clock.now = START + APPROVAL_TTL_MS - 1
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'pending' })
    clock.now = START + APPROVAL_TTL_MS
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'expired' })
    expect(await approvals.decide(id, 'approve', 'alice')).toEqual({
      ok: false,
      reason: 'expired',
    })
    const lateCall = {
      grantId: 'grant-alice',
      tool: 'delete_task',
      args: { tasklist: 'L1', task: 'T9' },
    }
    expect(await approvals.consume(lateCall)).toEqual({ ok: false, reason: 'expired' })
    const view = await approvals.view(id)
    expect(view).toMatchObject({ found: true, status: 'expired' })
    expect(view.found && view.description).toBeUndefined()

    for (const row of await store.db.selectFrom('approvals').selectAll().execute()) {
      expect(row).toMatchObject({
        status: 'expired',
        sealed_id: null,
        sealed_call: null,
        sealed_if_match: null,
      })
    }
    // Each expiry recorded once, however often it was seen.
    expect(await auditOf(store)).toEqual([
      'approved grant-alice delete_task',
      'expired grant-alice delete_task',
      'expired grant-alice delete_task',
    ])

    // An hour later the rows are gone: the call was never asked about, as far as anyone knows.
    clock.now = START + APPROVAL_TTL_MS + KEPT_AFTER_EXPIRY_MS
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'none' })
    expect(await store.db.selectFrom('approvals').selectAll().execute()).toEqual([])
  })

  it('an auth-token approval may be decided in the client, for its own grant; a per-call one only on its page', async () => {
    const { approvals } = await setUp()
    const perCall = await approvals.request(deleteCall())
    expect(await approvals.decideFromClient(perCall.id, deleteCall(), 'approve')).toEqual({
      ok: false,
      reason: 'per-call',
    })
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'pending' })

    const create = deleteCall({
      tool: 'create_task',
      mode: 'auth-token',
      args: { tasklist: 'L1', title: 'Call mum' },
      description: { summary: 'Add task "Call mum"?', details: [] },
    })
    const authToken = await approvals.request(create)
    expect(
      await approvals.decideFromClient(
        authToken.id,
        { ...create, grantId: 'grant-alice-other' },
        'approve',
      ),
    ).toEqual({
      ok: false,
      reason: 'not found',
    })
    // An answer about other arguments is no answer about this call.
    const otherTitle = { ...create, args: { tasklist: 'L1', title: 'Call dad' } }
    expect(await approvals.decideFromClient(authToken.id, otherTitle, 'approve')).toEqual({
      ok: false,
      reason: 'not found',
    })
    // The answer comes with its call, and is that call's use: the call goes, once.
    expect(await approvals.decideFromClient(authToken.id, create, 'approve')).toEqual({
      ok: true,
      decision: 'approved',
      approvalId: approvalKey(authToken.id),
    })
    expect(await approvals.consume(create)).toEqual({ ok: false, reason: 'used' })

    // Declining from the client is always allowed, and is the telling of it.
    expect(await approvals.decideFromClient(perCall.id, deleteCall(), 'decline')).toEqual({
      ok: true,
      decision: 'declined',
    })
    expect(await approvals.consume(deleteCall())).toEqual({ ok: false, reason: 'none' })
  })

  it('an approval given in the client lets its call go with the etag the person saw, erased once handed over', async () => {
    const { approvals, store } = await setUp()
    const update = deleteCall({
      tool: 'update_task',
      mode: 'auth-token',
      args: { tasklist: 'L1', task: 'T1', title: 'Buy oat milk' },
      description: { summary: 'Rename task "Buy milk"?', details: [], ifMatch: '"etag-7"' },
    })
    const { id } = await approvals.request(update)
    expect(await approvals.decideFromClient(id, update, 'approve')).toEqual({
      ok: true,
      decision: 'approved',
      approvalId: approvalKey(id),
      ifMatch: '"etag-7"',
    })
    const row = await store.db.selectFrom('approvals').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'approved', sealed_if_match: null })
    expect(row.used_at).not.toBeNull()
    // A second answer decides nothing: the approval was decided, and its one use is gone.
    expect(await approvals.decideFromClient(id, update, 'approve')).toEqual({
      ok: false,
      reason: 'decided',
      decision: 'approved',
    })
    expect(await approvals.consume(update)).toEqual({ ok: false, reason: 'used' })
    expect(await auditOf(store)).toEqual([
      'approved grant-alice update_task',
      'replayed grant-alice update_task',
    ])
  })

  it('an approval of an ended grant cannot be decided, and ending the grant erases it', async () => {
    const { approvals, store } = await setUp()
    const { id } = await approvals.request(deleteCall())
    const other = await approvals.request(deleteCall({ grantId: 'grant-bob' }))
    await store.db.deleteFrom('grant_links').where('grant_id', '=', 'grant-alice').execute()
    expect(await approvals.decide(id, 'approve', 'alice')).toEqual({ ok: false, reason: 'ended' })
    expect(await approvals.view(id)).toMatchObject({ found: true, grant: undefined })

    const grants = new Grants(store, { revokeAndErase: async () => {} }, log)
    await grants.end('grant-bob', 'disconnected by the person')
    expect(await approvals.view(other.id)).toEqual({ found: false })
  })

  it('at rest: the id only as its digest, no argument, summary, detail or etag in the clear', async () => {
    const { approvals, store } = await setUp()
    const canary = `canary-${randomBytes(8).toString('hex')}`
    const call = deleteCall({
      args: { tasklist: `${canary}-list`, task: `${canary}-task` },
      description: {
        summary: `Delete task "${canary}-title"?`,
        details: [{ label: `${canary}-label`, value: `${canary}-value` }],
        ifMatch: `${canary}-etag`,
      },
    })
    const { id } = await approvals.request(call)
    const pending = await dumpStore(store)
    const declined = await approvals.request(deleteCall({ args: { canary } }))
    await approvals.decide(id, 'approve', 'alice')
    await approvals.decide(declined.id, 'decline', 'alice')
    const decided = await dumpStore(store)
    for (const dump of [pending, decided]) {
      expect(dump).toContain('approvals')
      expect(dump).not.toContain(canary)
      expect(dump).not.toContain(id)
      expect(dump).toContain(approvalKey(id))
    }
    // Decided: the sealed call and the id are erased; the etag waits, sealed, for the call.
    const row = await rowOf(store, id)
    expect(row).toMatchObject({ sealed_id: null, sealed_call: null })
    expect(row!.sealed_if_match).toBeTruthy()
    expect(await approvals.consume(call)).toMatchObject({ ok: true, ifMatch: `${canary}-etag` })
    expect(await rowOf(store, id)).toMatchObject({ sealed_if_match: null })
  })

  it('a sealed value moved to another approval does not open there', async () => {
    const { approvals, store } = await setUp()
    const first = await approvals.request(deleteCall())
    const second = await approvals.request(deleteCall({ args: { tasklist: 'L2', task: 'T2' } }))
    const sealed = await rowOf(store, first.id)
    await store.db
      .updateTable('approvals')
      .set({ sealed_call: sealed!.sealed_call, sealed_if_match: sealed!.sealed_if_match })
      .where('id', '=', approvalKey(second.id))
      .execute()
    const view = await approvals.view(second.id)
    expect(view).toMatchObject({ found: true, status: 'pending' })
    expect(view.found && view.description).toBeUndefined()
    await approvals.decide(second.id, 'approve', 'alice')
    await expect(
      approvals.consume({
        grantId: 'grant-alice',
        tool: 'delete_task',
        args: { tasklist: 'L2', task: 'T2' },
      }),
    ).rejects.toThrow()
  })

  it('two replicas consuming one approval at once: exactly one goes through', async () => {
    const { location, vault, approvals, clock } = await setUp()
    const replica = new Approvals({
      store: await engine.openStore(location),
      vault,
      publicUrl: PUBLIC_URL,
      log,
      now: () => clock.now,
      audit: new AuditTrail(await engine.openStore(location), () => clock.now),
    })
    for (let round = 0; round < 5; round++) {
      const call = deleteCall({ args: { tasklist: 'L1', task: `T${round}` } })
      const { id } = await approvals.request(call)
      await replica.decide(id, 'approve', 'alice')
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? replica : approvals).consume(call)),
      )
      expect(
        results.filter((result) => result.ok),
        `round ${round}`,
      ).toHaveLength(1)
      for (const result of results.filter((r) => !r.ok)) {
        expect(result).toEqual({ ok: false, reason: 'used' })
      }
    }
  })
})
