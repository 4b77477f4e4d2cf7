import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, expect, it, vi } from 'vitest'
import type { Store } from '../../src/store/open.js'
import { leaseSize, RATE_LIMIT_TABLE, type RateLimit } from '../../src/store/rate-limits.js'
import { describeEachEngine, setReachable } from '../support/engines.js'

/**
 * The store's rate limiters (src/store/rate-limits.ts): on PostgreSQL one count in the shared
 * table for every store (replica) on the database, under keyed digests; on SQLite, one count in
 * each process's memory. Each limit allows exactly its points in a window, then says when to retry.
 */

const secret = randomBytes(32)
const limit = (overrides: Partial<RateLimit> = {}): RateLimit => ({
  name: 'registration',
  points: 3,
  durationSeconds: 60,
  keySecret: secret,
  ...overrides,
})

async function takes(store: Store, limitOf: RateLimit, key: string, count: number) {
  const limiter = store.rateLimiter(limitOf)
  const verdicts = []
  for (let i = 0; i < count; i++) verdicts.push(await limiter.take(key))
  return verdicts
}

async function tableKeys(store: Store): Promise<{ key: string; points: number }[]> {
  return store.db.selectFrom(RATE_LIMIT_TABLE).select(['key', 'points']).orderBy('key').execute()
}

afterEach(() => {
  vi.useRealTimers()
})

describeEachEngine('rate limiters', (engine) => {
  it('allow exactly the limit of one key in a window, then refuse it with the seconds left', async () => {
    const store = await engine.openStore()
    const limiter = store.rateLimiter(limit({ name: 'token' }))
    expect([limiter.name, limiter.points, limiter.durationSeconds]).toEqual(['token', 3, 60])
    const verdicts = []
    for (let i = 0; i < 5; i++) verdicts.push(await limiter.take('198.51.100.1'))
    expect(verdicts.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }])
    for (const refused of verdicts.slice(3)) {
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) })
      const { retryAfterSeconds } = refused as { retryAfterSeconds: number }
      // The rest of the 60 s window, which began with these takes: most of it.
      expect(retryAfterSeconds).toBeGreaterThanOrEqual(30)
      expect(retryAfterSeconds).toBeLessThanOrEqual(60)
    }
    // Another key, and the same key under another limit, count on their own.
    expect(await limiter.take('198.51.100.2')).toEqual({ allowed: true })
    expect(await store.rateLimiter(limit({ name: 'tool_call' })).take('198.51.100.1')).toEqual({
      allowed: true,
    })
    // On SQLite, the counters are in memory: nothing is written.
    if (engine.name === 'sqlite') expect(await tableKeys(store)).toEqual([])
  })

  if (engine.name === 'postgres') {
    it('count once for every store on the database: two replicas together allow what one does', async () => {
      const location = await engine.newLocation()
      const [one, two] = [await engine.openStore(location), await engine.openStore(location)]
      const [a, b] = [one.rateLimiter(limit()), two.rateLimiter(limit())]
      const verdicts = [
        await a.take('198.51.100.3'),
        await b.take('198.51.100.3'),
        await a.take('198.51.100.3'),
        await b.take('198.51.100.3'),
        await a.take('198.51.100.3'),
      ]
      expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false, false])
      // The fourth request, refused, is counted; the refusing replica refuses the fifth from
      // memory, without a statement, and the other asks the table once.
      expect(await tableKeys(one)).toEqual([{ key: expect.any(String), points: 5 }])
    })

    it('leased: a replica takes a block of points at a time, one statement a block', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const leased = limit({ name: 'tool_call', points: 160, leased: true })
      expect(leaseSize(160)).toBe(10)
      const limiter = store.rateLimiter(leased)
      const verdicts = await Promise.all(
        Array.from({ length: 15 }, () => limiter.take('grant-calling-steadily')),
      )
      expect(verdicts).toEqual(Array(15).fill({ allowed: true }))
      // Two blocks of ten taken, in the row the unbatched limiter would keep.
      expect(await tableKeys(store)).toEqual([
        { key: expect.stringMatching(/^tool_call:[0-9a-f]{64}$/), points: 20 },
      ])
    })

    it('leased: replicas together never allow more than the limit, and little less', async () => {
      const location = await engine.newLocation()
      const replicas = [
        await engine.openStore(location),
        await engine.openStore(location),
        await engine.openStore(location),
      ]
      const leased = limit({ name: 'tool_call', points: 64, leased: true })
      const limiters = replicas.map((store) => store.rateLimiter(leased))
      let allowed = 0
      for (let i = 0; i < 90; i++)
        if ((await limiters[i % 3]!.take('grant-in-a-burst')).allowed) allowed++
      // Blocks of 4: what two replicas leased and did not use is lost to the window, no more.
      expect(allowed).toBeLessThanOrEqual(64)
      expect(allowed).toBeGreaterThanOrEqual(64 - 2 * 3)
      for (const limiter of limiters)
        expect(await limiter.take('grant-in-a-burst')).toEqual({
          allowed: false,
          retryAfterSeconds: expect.any(Number),
        })
    })

    it('leased: while PostgreSQL cannot be reached, counted in memory against the same limit', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const failures: unknown[] = []
      const limiter = store.rateLimiter(
        limit({
          name: 'tool_call',
          points: 2,
          leased: true,
          onStoreError: (e) => failures.push(e),
        }),
      )
      await setReachable(location, false)
      try {
        const verdicts = [
          await limiter.take('grant'),
          await limiter.take('grant'),
          await limiter.take('grant'),
        ]
        expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false])
        expect(failures).toHaveLength(3)
      } finally {
        await setReachable(location, true)
      }
      // Reachable again: the shared count starts where the table left it.
      expect(await limiter.take('grant')).toEqual({ allowed: true })
      expect(await tableKeys(store)).toEqual([{ key: expect.any(String), points: 1 }])
    })

    it('count in an UNLOGGED table: no write-ahead log, no durable commit per call', async () => {
      const store = await engine.openStore()
      const { rows } = await sql<{ persistence: string }>`
        SELECT relpersistence AS persistence FROM pg_class WHERE relname = ${RATE_LIMIT_TABLE}
      `.execute(store.db)
      expect(rows).toEqual([{ persistence: 'u' }])
    })

    it('keep keyed digests in the table, never the address or the grant id', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const address = '203.0.113.77'
      const grantId = 'GrantIdInPlainText_0123456789'
      await takes(store, limit(), address, 1)
      await takes(store, limit({ name: 'tool_call' }), grantId, 2)
      // Under another secret (another VAULT_KEY), the same address is another row.
      await takes(store, limit({ keySecret: randomBytes(32) }), address, 1)
      const rows = await tableKeys(store)
      expect(rows).toHaveLength(3)
      for (const { key } of rows) {
        expect(key).toMatch(/^(registration|tool_call):[0-9a-f]{64}$/)
        expect(key).not.toContain(address)
        expect(key).not.toContain(grantId)
      }
      expect(rows.map((r) => r.points).sort()).toEqual([1, 1, 2])
    })

    it('count in memory, against the same limit, while PostgreSQL cannot be reached, and say so', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const failures: unknown[] = []
      const limiter = store.rateLimiter(
        limit({ points: 2, onStoreError: (error) => failures.push(error) }),
      )
      expect(await limiter.take('198.51.100.4')).toEqual({ allowed: true })
      await setReachable(location, false)
      try {
        const verdicts = [
          await limiter.take('198.51.100.4'),
          await limiter.take('198.51.100.4'),
          await limiter.take('198.51.100.4'),
        ]
        // This process's own count starts anew: two allowed, then refused with the time left.
        expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false])
        expect(verdicts[2]).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) })
        expect(failures).toHaveLength(3)
        expect(String(failures[0])).toMatch(/not currently accepting connections|terminat/)
      } finally {
        await setReachable(location, true)
      }
      // Reachable again: the shared count goes on from where it was.
      expect(await limiter.take('198.51.100.4')).toEqual({ allowed: true })
      expect(await limiter.take('198.51.100.4')).toMatchObject({ allowed: false })
      expect(failures).toHaveLength(3)
      expect(await tableKeys(store)).toEqual([{ key: expect.any(String), points: 3 }])
    })

    it('sweep counters whose window ended an hour ago, at most every five minutes', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const limiter = store.rateLimiter(limit())
      await limiter.take('198.51.100.5')
      const ended = Date.now() - 2 * 60 * 60_000
      await store.db
        .insertInto(RATE_LIMIT_TABLE)
        .values({ key: 'registration:old', points: 9, expire: ended })
        .execute()
      // Within five minutes of the store's opening, nothing is swept.
      await limiter.take('198.51.100.5')
      expect((await tableKeys(store)).map((r) => r.key)).toContain('registration:old')

      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 })
      await limiter.take('198.51.100.6')
      // The sweep runs beside the take: wait for it, however long a busy database takes.
      await vi.waitFor(
        async () => {
          expect((await tableKeys(store)).map((r) => r.key)).not.toContain('registration:old')
        },
        { timeout: 20_000 },
      )
      // The live counters stay.
      expect(await tableKeys(store)).toHaveLength(2)
    })
  }
})
