import type { Kysely, Migration } from 'kysely'

/**
 * Migration 0004: what an authorization request asked of its code beyond the grant itself,
 * for the Google dialect: the OpenID Connect `nonce` its ID token echoes, and whether the
 * exchange gives a refresh token (Google: only for `access_type=offline`). Older codes hold
 * null there, read as no nonce and a refresh token, as before.
 */
export const codeOptionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oauth_codes').addColumn('nonce', 'text').execute()
    await db.schema.alterTable('oauth_codes').addColumn('refresh', 'integer').execute()
  },
}
