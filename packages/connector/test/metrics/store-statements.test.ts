import { expect, it } from 'vitest'
import { Metrics } from '../../src/metrics/metrics.js'
import { openStore } from '../../src/store/open.js'
import { describeEachEngine } from '../support/engines.js'
import { moved, parseExposition } from '../support/prometheus.js'

/**
 * `countersign_store_statements_total` (docs/operations.md, "Metrics"): every statement the
 * store sends to PostgreSQL, whichever way it goes - kysely's queries and transactions, the
 * prepared reads, the channels' NOTIFY - and nothing on SQLite, where there is no server to send
 * one to. One series, with no labels.
 */

const STATEMENTS = 'countersign_store_statements_total'

describeEachEngine(STATEMENTS, (engine) => {
  it('counts each statement sent: a query, a prepared read, a transaction, a notification', async () => {
    const metrics = new Metrics()
    const store = await openStore({
      ...(await engine.location()),
      onStatement: () => metrics.storeStatement(),
    })
    try {
      const scrape = async () => parseExposition((await metrics.scrape()).text)
      const before = await scrape()
      expect(before.types.get(STATEMENTS)).toBe('counter')

      await store.db.selectFrom('grant_links').select('grant_id').execute()
      await store.prepareRead('SELECT id FROM upstream_credentials WHERE id = $1')('none')
      // BEGIN, the insert, COMMIT.
      await store.db
        .transaction()
        .execute((tx) =>
          tx
            .insertInto('person_sessions')
            .values({ id: 'statements-1', subject: 's', created_at: 1, expires_at: 2 })
            .execute(),
        )
      await store.channel('statements').publish('{}')

      const counted = moved(before, await scrape(), STATEMENTS)
      expect(counted).toEqual(engine.name === 'postgres' ? { '': 6 } : {})
    } finally {
      await store.close()
    }
  })
})
