import type { Kysely, Migration, MigrationProvider } from 'kysely'

/**
 * Migrations are code, applied in key order; a migration once shipped never changes. They run
 * unchanged on SQLite and PostgreSQL, so they use only portable column types: text, integer, and
 * bigint for epoch-millisecond instants.
 */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('upstream_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('ciphertext', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute()
      // A revocation at the provider names the person: erase everything held for them.
      await db.schema
        .createIndex('upstream_credentials_by_subject')
        .on('upstream_credentials')
        .column('subject')
        .execute()
      // Key rotation walks the rows still sealed under a retiring key.
      await db.schema
        .createIndex('upstream_credentials_by_key')
        .on('upstream_credentials')
        .columns(['key_id', 'id'])
        .execute()

      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('upstream_status', 'integer')
        .execute()
      await db.schema
        .createIndex('audit_events_by_grant')
        .on('audit_events')
        .columns(['grant_id', 'at'])
        .execute()
      // Retention prunes by age.
      await db.schema.createIndex('audit_events_by_time').on('audit_events').column('at').execute()
    },
  },
}

export const connectorMigrations: MigrationProvider = {
  getMigrations: async () => migrations,
}

/**
 * Our own bookkeeping tables, so a PostgreSQL database shared with another kysely application
 * never mixes the two histories.
 */
export const MIGRATION_TABLE = 'connector_migration'
export const MIGRATION_LOCK_TABLE = 'connector_migration_lock'
