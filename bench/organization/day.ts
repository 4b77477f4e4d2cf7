import { setTimeout as sleep } from 'node:timers/promises'
import { Mulberry32 } from '@countersign/sandbox/testing'
import { approvedCreate, send, type Member, type Outcome } from './calls.js'

/**
 * A working day of the organization, compressed into `ms`: every person but one makes a few
 * reads of their list at random moments of the day, and every tenth also adds a task, approved
 * in their assistant; meanwhile one person's assistant loops `list_tasks` on several connections
 * for the whole day, pausing only 20 ms after a call that failed, as a client shown an error
 * would. The project's daily quota at the provider is small enough for the loop to use it up.
 *
 * What each person used of the quota is counted here, from the calls' outcomes: a read that
 * succeeded is one query, a change that succeeded `costs.change`, joining `costs.joining`
 * (measured before the day); a refused call is refused before it is charged. A change that
 * failed may have spent its reads: it is counted as nothing.
 */

export interface DayPlan {
  base: string
  /** The people of the day; `runaway` is one of them. */
  people: readonly Member[]
  runaway: Member
  ms: number
  /** The project's daily quota, and the people holding a Tasks grant: a share is their ratio. */
  quota: number
  holders: number
  costs: { joining: number; change: number }
}

export interface DayResult {
  /** The others' calls, and those that succeeded. */
  others: { calls: number; ok: number }
  runaway: { calls: number; ok: number }
  /** Calls refused (share or provider's quota) that were within their person's share. */
  refusedWithinShare: number
  /** Queries used by the runaway's person, and by the median other person. */
  usedByRunaway: number
  usedByMedianPerson: number
  /** When the runaway was first refused, in ms from the day's start (undefined: never). */
  runawayFirstRefusedMs: number | undefined
  outcomes: Record<Outcome, number>
}

const READS_PER_PERSON = 3
/** One person in this many also adds a task. */
const CHANGE_EVERY = 10
const AT_ONCE = 16
const RUNAWAY_LOOPS = 8
const PAUSE_AFTER_FAILURE_MS = 20

interface Visit {
  at: number
  person: Member
  change: boolean
}

export async function runDay(plan: DayPlan): Promise<DayResult> {
  const share = plan.quota / plan.holders
  const used = new Map(plan.people.map((p) => [p.user, plan.costs.joining]))
  const outcomes: Record<Outcome, number> = { ok: 0, share: 0, quota: 0, failed: 0 }
  const result = {
    others: { calls: 0, ok: 0 },
    runaway: { calls: 0, ok: 0 },
    refusedWithinShare: 0,
    runawayFirstRefusedMs: undefined as number | undefined,
  }
  const start = performance.now()
  const now = () => performance.now() - start

  const record = (person: Member, change: boolean, outcome: Outcome) => {
    outcomes[outcome]++
    const counted = person === plan.runaway ? result.runaway : result.others
    counted.calls++
    const before = used.get(person.user)!
    const cost = change ? plan.costs.change : 1
    if (outcome === 'ok') {
      counted.ok++
      used.set(person.user, before + cost)
    } else if (outcome === 'share' || outcome === 'quota') {
      if (before + cost <= share) result.refusedWithinShare++
      if (person === plan.runaway) result.runawayFirstRefusedMs ??= now()
    }
  }

  const visits = schedule(plan)
  let next = 0
  const visitor = async () => {
    for (let i = next++; i < visits.length; i = next++) {
      const { at, person, change } = visits[i]!
      if (at > now()) await sleep(at - now())
      const outcome = change
        ? await (await approvedCreate(plan.base, person, `Added at ${Math.round(at)} ms`)).send()
        : await send(person.read)
      record(person, change, outcome)
    }
  }
  let othersDone = false
  const loop = async () => {
    while (!othersDone || now() < plan.ms) {
      const outcome = await send(plan.runaway.read)
      record(plan.runaway, false, outcome)
      if (outcome !== 'ok') await sleep(PAUSE_AFTER_FAILURE_MS)
    }
  }
  const loops = Array.from({ length: RUNAWAY_LOOPS }, loop)
  await Promise.all(Array.from({ length: AT_ONCE }, visitor))
  othersDone = true
  await Promise.all(loops)

  const others = plan.people.filter((p) => p !== plan.runaway).map((p) => used.get(p.user)!)
  others.sort((a, b) => a - b)
  return {
    ...result,
    usedByRunaway: used.get(plan.runaway.user)!,
    usedByMedianPerson: others[Math.floor(others.length / 2)]!,
    outcomes,
  }
}

/** The others' visits, at moments spread at random over the day (the same every run). */
function schedule(plan: DayPlan): Visit[] {
  const random = new Mulberry32(20_260_728)
  const visits: Visit[] = []
  plan.people.forEach((person, index) => {
    if (person === plan.runaway) return
    for (let i = 0; i < READS_PER_PERSON; i++)
      visits.push({ at: random.next() * plan.ms, person, change: false })
    if (index % CHANGE_EVERY === 0)
      visits.push({ at: random.next() * plan.ms, person, change: true })
  })
  return visits.sort((a, b) => a.at - b.at)
}
