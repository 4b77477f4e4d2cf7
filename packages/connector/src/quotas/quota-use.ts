import { sql } from 'kysely'
import type { SharedQuotaName } from '../config/config.js'
import type { Store } from '../store/open.js'

/**
 * What each person spent of the project's daily quotas, shared by every replica on the store
 * (`quota_use`): one row a quota, Pacific day and person, the person being a keyed digest of their
 * account. Replicas add what they counted about once a second (fair-shares.ts), and read totals
 * back in the same statement.
 */

export interface Spent {
  quota: SharedQuotaName
  day: string
  /** The person's digest. */
  person: string
  used: number
}

/** The project's day, as fair shares weigh it (fair-shares.ts). */
export interface DaySummary {
  /** Queries counted today, everyone's. */
  spent: number
  /** People who spent any of it this week, today included. */
  active: number
  /** What the others spent today within `share` each: each one's use, up to `share`. */
  within: number
}

export class QuotaUse {
  constructor(private readonly store: Store) {}

  /** Adds each row's `used` to the count kept, and returns the counts now kept for those rows. */
  async add(rows: readonly Spent[]): Promise<Spent[]> {
    if (rows.length === 0) return []
    const kept = await this.store.db
      .insertInto('quota_use')
      .values(rows.map(({ quota, day, person, used }) => ({ quota, day, person, used })))
      .onConflict((oc) =>
        oc
          .columns(['quota', 'day', 'person'])
          .doUpdateSet({ used: (eb) => eb('quota_use.used', '+', eb.ref('excluded.used')) }),
      )
      .returning(['quota', 'day', 'person', 'used'])
      .execute()
    return kept.map((row) => ({
      ...row,
      quota: row.quota as SharedQuotaName,
      used: Number(row.used),
    }))
  }

  /** What `person` has spent of `quota` on `day`. */
  async usedBy(quota: SharedQuotaName, day: string, person: string): Promise<number> {
    const row = await this.store.db
      .selectFrom('quota_use')
      .select('used')
      .where('quota', '=', quota)
      .where('day', '=', day)
      .where('person', '=', person)
      .executeTakeFirst()
    return Number(row?.used ?? 0)
  }

  /**
   * The day's total, the people of the week from `weekStart`, and what people other than `person`
   * spent within `share` each.
   */
  async summary(
    quota: SharedQuotaName,
    day: string,
    weekStart: string,
    share: number,
    person: string,
  ): Promise<DaySummary> {
    const { rows } = await sql<{ active: unknown; spent: unknown; within: unknown }>`
      SELECT count(*) AS active,
        coalesce(sum(today), 0) AS spent,
        coalesce(sum(CASE WHEN person = ${person} THEN 0 WHEN today < ${share} THEN today ELSE ${share} END), 0) AS within
      FROM (
        SELECT person, sum(CASE WHEN day = ${day} THEN used ELSE 0 END) AS today
        FROM quota_use
        WHERE quota = ${quota} AND day >= ${weekStart} AND day <= ${day}
        GROUP BY person
      ) AS people
    `.execute(this.store.db)
    const row = rows[0]
    return {
      active: Number(row?.active ?? 0),
      spent: Number(row?.spent ?? 0),
      within: Number(row?.within ?? 0),
    }
  }

  /** Deletes the days before `day`. */
  async forgetBefore(day: string): Promise<void> {
    await this.store.db.deleteFrom('quota_use').where('day', '<', day).execute()
  }
}
