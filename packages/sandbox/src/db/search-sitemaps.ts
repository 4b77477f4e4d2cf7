import type { Kysely, Migration } from 'kysely'

/**
 * Migration 0003: the sitemaps people submit to the search-performance API. A row is one
 * submission's latest time; the seeded sitemaps of a site are not stored (they are derived).
 */
export const searchSitemapsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('search_sitemaps')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('site_url', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('submitted', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('search_sitemaps_pk', ['user_id', 'site_url', 'path'])
      .execute()
  },
}
