import { sql } from 'kysely'
import type { Store } from '../../src/store/open.js'

/** Every row of every table of the connector's store, as text: what a copy of the database shows. */
export async function dumpStore(store: Store): Promise<string> {
  const tables =
    store.engine === 'sqlite'
      ? await sql<{ name: string }>`
          SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        `.execute(store.db)
      : await sql<{ name: string }>`
          SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        `.execute(store.db)
  const dumps: string[] = []
  for (const { name } of tables.rows) {
    const rows = await sql`SELECT * FROM ${sql.table(name)}`.execute(store.db)
    dumps.push(`${name}: ${JSON.stringify(rows.rows)}`)
  }
  return dumps.join('\n')
}
