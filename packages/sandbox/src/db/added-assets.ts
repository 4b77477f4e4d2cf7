import type { Kysely, Migration } from 'kysely'

/**
 * Migration 0005: the sites, analytics accounts and analytics properties the control API adds
 * to a user after the built-in ones (which are derived from the user's name and not stored).
 * `seq` is the order of addition; a property's and an added account's numeric id are made from
 * it, and AUTOINCREMENT never hands a number out twice, not even after a reset.
 */
export const addedAssetsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('added_sites')
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('site_url', 'text', (c) => c.notNull())
      .addColumn('created', 'text', (c) => c.notNull())
      .addUniqueConstraint('added_sites_once', ['user_id', 'site_url'])
      .execute()

    await db.schema
      .createTable('added_accounts')
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('created', 'text', (c) => c.notNull())
      .addUniqueConstraint('added_accounts_once', ['user_id', 'display_name'])
      .execute()

    await db.schema
      .createTable('added_properties')
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('created', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('added_properties_by_user')
      .on('added_properties')
      .columns(['user_id', 'seq'])
      .execute()
  },
}
