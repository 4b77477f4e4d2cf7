import { PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'

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
  '0002_upstream_authorizations': {
    async up(db: Kysely<unknown>) {
      // Authorizations at the provider under way: one row per state sent, taken once on return.
      await db.schema
        .createTable('upstream_authorizations')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('interaction_uid', 'text')
        .addColumn('service', 'text')
        .addColumn('scopes', 'text')
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      // Expired rows are swept by age.
      await db.schema
        .createIndex('upstream_authorizations_by_expiry')
        .on('upstream_authorizations')
        .column('expires_at')
        .execute()
    },
  },
  '0003_authorization_server': {
    async up(db: Kysely<unknown>) {
      // oidc-provider's records (clients, grants, codes, tokens, sessions, interactions), one
      // table for every kind. `id`, `uid` and `user_code` hold SHA-256 digests, never the values.
      await db.schema
        .createTable('oauth_records')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addPrimaryKeyConstraint('oauth_records_pk', ['kind', 'id'])
        .execute()
      // Revoking a grant deletes every record issued under it.
      await db.schema
        .createIndex('oauth_records_by_grant')
        .on('oauth_records')
        .column('grant_id')
        .execute()
      await db.schema
        .createIndex('oauth_records_by_uid')
        .on('oauth_records')
        .column('uid')
        .execute()
      await db.schema
        .createIndex('oauth_records_by_user_code')
        .on('oauth_records')
        .column('user_code')
        .execute()
      // Expired records are purged by age.
      await db.schema
        .createIndex('oauth_records_by_expiry')
        .on('oauth_records')
        .column('expires_at')
        .execute()

      // What a grant of the connector's authorization server holds at the provider.
      await db.schema
        .createTable('grant_links')
        .addColumn('grant_id', 'text', (c) => c.primaryKey())
        .addColumn('credential_id', 'text', (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      // One grant per person, client and service: the existing one is found by these.
      await db.schema
        .createIndex('grant_links_by_owner')
        .on('grant_links')
        .columns(['account', 'client_id', 'service'])
        .execute()
      // A credential the provider revoked ends the grants that use it.
      await db.schema
        .createIndex('grant_links_by_credential')
        .on('grant_links')
        .column('credential_id')
        .execute()
    },
  },
  '0004_person_sessions': {
    async up(db: Kysely<unknown>) {
      // Sessions of the connector's own pages (the person's connections). `id` is the SHA-256
      // of the cookie's value: a copy of the database signs nobody in.
      await db.schema
        .createTable('person_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      // Expired sessions are swept by age.
      await db.schema
        .createIndex('person_sessions_by_expiry')
        .on('person_sessions')
        .column('expires_at')
        .execute()
    },
  },
  '0005_approvals': {
    async up(db: Kysely<unknown>) {
      // Approvals of single tool calls (src/approval). `id` is the SHA-256 of the id in the
      // approval page's URL; the call's arguments and description are sealed by the vault and
      // erased once decided or expired.
      await db.schema
        .createTable('approvals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('args_digest', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('sealed_id', 'text')
        .addColumn('sealed_call', 'text')
        .addColumn('sealed_if_match', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        .addColumn('used_at', 'bigint')
        .execute()
      // A call is matched to its approval by these.
      await db.schema
        .createIndex('approvals_by_call')
        .on('approvals')
        .columns(['grant_id', 'tool', 'args_digest'])
        .execute()
      // Expired approvals are erased, then purged, by age.
      await db.schema
        .createIndex('approvals_by_expiry')
        .on('approvals')
        .column('expires_at')
        .execute()
    },
  },
  '0006_rate_limits': {
    async up(db: Kysely<unknown>) {
      // Rate limit counters shared by the replicas (src/store/rate-limits.ts), in the layout of
      // rate-limiter-flexible's PostgreSQL limiter, which inserts positionally: the key, the
      // requests counted in the window, and when the window ends (epoch milliseconds). A key is
      // `{limit}:{HMAC-SHA-256}` of a client address or a grant id, never the value itself. On
      // SQLite the counters live in memory and this table stays empty.
      //
      // The one engine-specific line: on PostgreSQL the table is UNLOGGED. Counters written on
      // every tool call need no write-ahead log: the statement then costs about one round trip
      // instead of a durable commit, and a crash or a failover merely starts the counts anew.
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter
      await db.schema
        .createTable('rate_limits')
        .$call((table) => (postgres ? table.modifyFront(sql`unlogged`) : table))
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expire', 'bigint')
        .execute()
      // Expired counters are swept by age.
      await db.schema
        .createIndex('rate_limits_by_expiry')
        .on('rate_limits')
        .column('expire')
        .execute()
    },
  },
  '0007_audit_people': {
    async up(db: Kysely<unknown>) {
      // The person's activity page reads the audit trail by person, and groups a change's events
      // (its decision, then its outcome at the provider) by approval: each event keeps whose grant
      // it was (the person, the assistant, the service), which outlives the grant's link, and the
      // approval's key (the digest of its page's id). Older events take theirs from the links
      // that still exist.
      for (const column of ['account', 'client_id', 'service', 'approval_id'])
        await db.schema.alterTable('audit_events').addColumn(column, 'text').execute()
      await sql`
        UPDATE audit_events SET
          account = (SELECT account FROM grant_links WHERE grant_links.grant_id = audit_events.grant_id),
          client_id = (SELECT client_id FROM grant_links WHERE grant_links.grant_id = audit_events.grant_id),
          service = (SELECT service FROM grant_links WHERE grant_links.grant_id = audit_events.grant_id)
      `.execute(db)
      await db.schema
        .createIndex('audit_events_by_account')
        .on('audit_events')
        .columns(['account', 'at'])
        .execute()
    },
  },
  '0008_grant_coverage': {
    async up(db: Kysely<unknown>) {
      // What a grant covers of the person's task lists, sites or properties (src/auth/coverage.ts):
      // null for every one (what every grant covered before), else the chosen ids sealed by the
      // vault, with the key that sealed them for rotation to find.
      await db.schema.alterTable('grant_links').addColumn('coverage', 'text').execute()
      await db.schema.alterTable('grant_links').addColumn('coverage_key_id', 'text').execute()
      // A person choosing what a new grant covers (src/auth/choices.ts): the credential the
      // provider just gave, kept until they choose, or released when the choice expires.
      await db.schema
        .createTable('grant_choices')
        .addColumn('interaction_hash', 'text', (c) => c.primaryKey())
        .addColumn('credential_id', 'text', (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        // The largest form its page could post: what the page drew of the person's items.
        .addColumn('form_bytes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('grant_choices_by_expiry')
        .on('grant_choices')
        .column('expires_at')
        .execute()
    },
  },
  '0009_quota_use': {
    async up(db: Kysely<unknown>) {
      // Each person's use of the provider project's daily quotas (src/quotas/quota-use.ts): one
      // row a quota, Pacific day and person (a keyed digest), added to by each replica about once
      // a second. Logged: a crash must not hand a runaway loop a fresh day.
      await db.schema
        .createTable('quota_use')
        .addColumn('quota', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('person', 'text', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('quota_use_key', ['quota', 'day', 'person'])
        .execute()
    },
  },
  '0010_grant_returns_to': {
    async up(db: Kysely<unknown>) {
      // Where a grant's authorization sent the person back (the redirect's host and port), so two
      // connections of one app can be told apart (src/account/connections.ts). Null for older ones.
      await db.schema.alterTable('grant_links').addColumn('returns_to', 'text').execute()
    },
  },
  '0011_mcp_answers': {
    async up(db: Kysely<unknown>) {
      // A 2025-11-25 client's answer to a question another replica asked (src/mcp/answer-box.ts),
      // kept sealed until the asking request takes it: the channel only wakes that replica.
      await db.schema
        .createTable('mcp_answers')
        .addColumn('session', 'text', (c) => c.notNull())
        .addColumn('question_id', 'bigint', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('mcp_answers_key', ['session', 'question_id'])
        .execute()
    },
  },
  '0012_push': {
    async up(db: Kysely<unknown>) {
      // The connector's VAPID key pair (src/push/push-keys.ts): made by the first replica that
      // needs it, its private half sealed by the vault; every replica signs with the same one.
      await db.schema
        .createTable('push_keys')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      // The person's devices that asked for notifications (src/push/devices.ts): the browser's
      // subscription sealed, found again by a keyed digest of its endpoint (a device subscribed
      // again, or by another person, replaces its row), listed by the person's account.
      await db.schema
        .createTable('push_devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('endpoint_digest', 'text', (c) => c.notNull().unique())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('push_devices_by_account')
        .on('push_devices')
        .column('account')
        .execute()
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
