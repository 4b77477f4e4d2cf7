import { randomBytes } from 'node:crypto'
import { pino } from 'pino'
import { expect, it } from 'vitest'
import { Grants } from '../../src/auth/grants.js'
import { DEFAULT_QUOTAS, type QuotaSettings } from '../../src/config/config.js'
import { FairShares } from '../../src/quotas/fair-shares.js'
import { pacificDay } from '../../src/quotas/pacific-day.js'
import { QuotaUse } from '../../src/quotas/quota-use.js'
import type { Store } from '../../src/store/open.js'
import { describeEachEngine, setReachable } from '../support/engines.js'

/**
 * Fair shares of the provider project's daily quotas (src/quotas/fair-shares.ts), on each engine,
 * each replica a FairShares of its own on one store, on a clock the test moves: a person under
 * their share always goes; beyond it only while the project has room once everyone else's share
 * is kept; counts are shared by replicas, kept under digests, and renew at midnight Pacific.
 */

const DAY_MS = 86_400_000
const secret = randomBytes(32)
const quiet = pino({ level: 'silent' })

/** 10:00 Pacific (18:00 UTC) on a day in November: no daylight saving near. */
const MORNING = Date.parse('2026-11-20T18:00:00Z')

interface Replica {
  shares: FairShares
  /** Spends `count` Tasks queries for `person`, each one first admitted; the verdicts. */
  calls(person: string, count: number): Promise<boolean[]>
}

function world(store: Store, limits: Partial<QuotaSettings>, lines: string[] = []) {
  const clock = { now: MORNING }
  const grants = new Grants(store, { revokeAndErase: async () => {} }, quiet, () => clock.now)
  let made = 0
  /** `person` connects to `service` (a grant of their own, made `daysAgo` days ago). */
  const connect = async (person: string, daysAgo = 0, service = 'tasks' as const) => {
    const was = clock.now
    clock.now -= daysAgo * DAY_MS
    await grants.link({
      grantId: `grant-${++made}`,
      credentialId: `credential-${made}`,
      account: person,
      clientId: 'assistant',
      service,
    })
    clock.now = was
  }
  const replica = (): Replica => {
    const shares = new FairShares({
      limits: { ...DEFAULT_QUOTAS, ...limits },
      use: new QuotaUse(store),
      peopleHolding: (service, since) => grants.peopleHolding(service, since),
      keySecret: secret,
      log: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }),
      now: () => clock.now,
    })
    return {
      shares,
      async calls(person, count) {
        const verdicts = []
        for (let i = 0; i < count; i++) {
          const verdict = await shares.admit('tasksQueriesPerDay', person)
          if (verdict.allowed) shares.spend('tasksQueriesPerDay', person)
          verdicts.push(verdict.allowed)
          // What a replica does about once a second: every call here.
          await shares.flush()
        }
        return verdicts
      },
    }
  }
  return { clock, connect, replica }
}

const times = (allowed: boolean, count: number) => Array<boolean>(count).fill(allowed)

describeEachEngine('fair shares of a daily quota', (engine) => {
  it('a person goes up to their share, then is refused with what they spent and when it renews', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { connect, replica, clock } = world(store, { tasksQueriesPerDay: 30 })
    for (const person of ['ada', 'bo', 'cy']) await connect(person)
    const one = replica()

    expect(await one.calls('ada', 12)).toEqual([...times(true, 10), ...times(false, 2)])
    const verdict = await one.shares.admit('tasksQueriesPerDay', 'ada')
    expect(verdict).toEqual({
      allowed: false,
      refusal: {
        quota: 'tasksQueriesPerDay',
        counts: 'Tasks queries',
        used: 10,
        share: 10,
        limit: 30,
        people: 3,
        // Midnight Pacific (PST, UTC-8) after 10:00 on the 20th: 08:00 UTC on the 21st.
        renewsAt: Date.parse('2026-11-21T08:00:00Z'),
      },
    })
    // Nobody else noticed: each of the others still has a whole share.
    expect(await one.calls('bo', 10)).toEqual(times(true, 10))
    expect(await one.calls('cy', 10)).toEqual(times(true, 10))
    await one.shares.close()

    // A new Pacific day: everyone's share is whole again.
    clock.now = Date.parse('2026-11-21T08:00:00Z')
    const next = replica()
    expect(await next.calls('ada', 10)).toEqual(times(true, 10))

    // Fair shares look back a week: the table keeps eight days, and forgets older ones.
    const days = () =>
      store.db.selectFrom('quota_use').select('day').distinct().orderBy('day').execute()
    expect(await days()).toEqual([{ day: '2026-11-20' }, { day: '2026-11-21' }])
    clock.now += 8 * DAY_MS
    await next.calls('bo', 1)
    expect(await days()).toEqual([{ day: '2026-11-29' }])
  })

  it('replicas share one count: what one counted, the other refuses beyond', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { connect, replica } = world(store, { tasksQueriesPerDay: 20 })
    await connect('ada')
    await connect('bo')
    const [one, two] = [replica(), replica()]

    expect(await one.calls('ada', 6)).toEqual(times(true, 6))
    expect(await two.calls('ada', 6)).toEqual([...times(true, 4), ...times(false, 2)])
    // One that knew ada's count from before learns the new one with what it adds next: it may
    // let one call too many through, never more.
    expect(await one.calls('ada', 2)).toEqual([true, false])

    // The table holds digests and counts: no account in plain text.
    const rows = await store.db.selectFrom('quota_use').selectAll().execute()
    expect(rows).toEqual([
      {
        quota: 'tasksQueriesPerDay',
        day: '2026-11-20',
        person: expect.stringMatching(/^[0-9a-f]{64}$/),
        used: 11,
      },
    ])
    expect(JSON.stringify(rows)).not.toMatch(/ada/)
  })

  it('beyond a share, a person borrows only what people away for over a week leave, less a tenth', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { connect, replica } = world(store, { tasksQueriesPerDay: 100 })
    // Ten people: ada and bo connected this week, eight others connected a month ago and silent.
    await connect('ada')
    await connect('bo')
    for (let i = 0; i < 8; i++) await connect(`away-${i}`, 30)
    const one = replica()

    // Share 10 each. Kept for others: bo's 10, a tenth of the quota (10) for those away, and
    // 10 more, since ada, connected and active this week, is counted twice; she may borrow the
    // rest: 100 - 30 = 70.
    const verdicts = await one.calls('ada', 85)
    expect(verdicts.filter(Boolean)).toHaveLength(70)
    expect(verdicts.indexOf(false)).toBe(70)
    // bo's share is whole, and so is the first person back from away.
    expect(await one.calls('bo', 10)).toEqual(times(true, 10))
    expect(await one.calls('away-0', 10)).toEqual(times(true, 10))
  })

  it('a count of people read before the caller connected still holds them to the quota', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { replica } = world(store, { tasksQueriesPerDay: 5 })
    // Nobody holds a grant as the count is read: the caller is one person, with the whole quota.
    expect(await replica().calls('ada', 7)).toEqual([...times(true, 5), ...times(false, 2)])
  })

  it('the log warns once a day when the project has spent most of a quota', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const lines: string[] = []
    const { connect, replica } = world(store, { tasksQueriesPerDay: 10 }, lines)
    await connect('ada')
    const one = replica()
    await one.calls('ada', 7)
    expect(lines).toEqual([])
    await one.calls('ada', 3)
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(warnings).toEqual([
      expect.objectContaining({
        quota: 'tasks_queries_per_day',
        spent: 8,
        limit: 10,
        people: 1,
        msg: expect.stringMatching(/spent 80% of today's Tasks queries/),
      }),
    ])
    expect(lines.join('')).not.toMatch(/ada/)
  })

  it('the day a query counts in is the Pacific one, daylight saving included', () => {
    // 23:59 PDT on 2026-03-08 (the day the clocks went forward) is 06:59 UTC on the 9th.
    expect(pacificDay(Date.parse('2026-03-09T06:59:00Z'))).toEqual({
      key: '2026-03-08',
      endsAt: Date.parse('2026-03-09T07:00:00Z'),
    })
    // 2026-11-01 is 25 hours long: it ends at 08:00 UTC on the 2nd.
    expect(pacificDay(Date.parse('2026-11-01T12:00:00Z'))).toEqual({
      key: '2026-11-01',
      endsAt: Date.parse('2026-11-02T08:00:00Z'),
    })
  })

  if (engine.name === 'postgres') {
    it('when the store is unreachable, calls go on from what is known, and the counts are added later', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore(location)
      const { connect, replica } = world(store, { tasksQueriesPerDay: 20 })
      await connect('ada')
      await connect('bo')
      const one = replica()
      expect(await one.calls('ada', 3)).toEqual(times(true, 3))
      await setReachable(location, false)
      try {
        expect(await one.calls('ada', 9)).toEqual([...times(true, 7), ...times(false, 2)])
      } finally {
        await setReachable(location, true)
      }
      await one.shares.flush()
      const row = await store.db.selectFrom('quota_use').select('used').executeTakeFirst()
      expect(row?.used).toBe(10)
    })
  }
})
