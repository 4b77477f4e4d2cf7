import { type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { addedAssetsMigration } from './added-assets.js'
import { codeOptionsMigration } from './code-options.js'
import { searchSitemapsMigration } from './search-sitemaps.js'

/** Migrations are code, applied in key order; a migration once shipped never changes. */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('task_lists')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('updated', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('task_lists_by_user')
        .on('task_lists')
        .columns(['user_id', 'seq'])
        .execute()

      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('list_id', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text')
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('due', 'text')
        .addColumn('completed', 'text')
        .addColumn('updated', 'text', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_at', 'text')
        .addColumn('recurring', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('assignment', 'text')
        .addColumn('links', 'text')
        .execute()
      // Siblings in order: the only index the depth-first walk needs.
      await db.schema
        .createIndex('tasks_siblings')
        .on('tasks')
        .columns(['list_id', 'parent_id', 'position', 'id'])
        .execute()
      // Count limits: non-hidden tasks per list, tasks per user.
      await db.schema
        .createIndex('tasks_by_list_visibility')
        .on('tasks')
        .columns(['list_id', 'hidden', 'deleted'])
        .execute()
      await db.schema
        .createIndex('tasks_by_user')
        .on('tasks')
        .columns(['user_id', 'deleted'])
        .execute()

      await db.schema
        .createTable('surface_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('surface_type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .execute()

      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('oauth_grants_by_user')
        .on('oauth_grants')
        .columns(['user_id', 'client_id'])
        .execute()

      await db.schema
        .createTable('oauth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'integer')
        .execute()
      await db.schema
        .createIndex('oauth_tokens_by_grant')
        .on('oauth_tokens')
        .column('grant_id')
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('session_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull())
        .execute()
    },
  },
  '0002_token_scopes': {
    // A refreshed access token may carry fewer scopes than its grant (a narrowing refresh).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('oauth_tokens').addColumn('scopes', 'text').execute()
    },
  },
  '0003_search_sitemaps': searchSitemapsMigration,
  '0004_code_options': codeOptionsMigration,
  '0005_added_assets': addedAssetsMigration,
}

export const sandboxMigrations: MigrationProvider = {
  getMigrations: async () => migrations,
}
