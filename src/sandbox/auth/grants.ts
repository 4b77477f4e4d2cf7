import type { SandboxDb } from '../db/open.js'
import { hashSecret, randomToken } from './secrets.js'

/** What a valid access token stands for. */
export interface Principal {
  user: string
  client: string
  grantId: string
  scopes: ReadonlySet<string>
}

export interface IssuedTokens {
  access_token: string
  refresh_token: string
  expires_in: number
  token_type: 'Bearer'
  scope: string[]
}

/** Creates a grant (one app's consent for one user) and its first access and refresh tokens. */
export async function createGrant(
  db: SandboxDb,
  grant: { user: string; client: string; scopes: string[] },
  accessTtlSeconds: number,
): Promise<{ grantId: string; tokens: IssuedTokens }> {
  const grantId = randomToken('', 16)
  const access = randomToken('sat_')
  const refresh = randomToken('srt_')
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('oauth_grants')
      .values({
        id: grantId,
        user_id: grant.user,
        client_id: grant.client,
        scopes: grant.scopes.join(' '),
        created: new Date().toISOString(),
      })
      .execute()
    await trx
      .insertInto('oauth_tokens')
      .values([
        { token_hash: hashSecret(access), grant_id: grantId, kind: 'access', expires_at: Date.now() + accessTtlSeconds * 1000 },
        { token_hash: hashSecret(refresh), grant_id: grantId, kind: 'refresh', expires_at: null },
      ])
      .execute()
  })
  return {
    grantId,
    tokens: { access_token: access, refresh_token: refresh, expires_in: accessTtlSeconds, token_type: 'Bearer', scope: grant.scopes },
  }
}

/** A new access token for a grant (the refresh grant); the refresh token itself is kept. */
export async function issueAccessToken(db: SandboxDb, grantId: string, accessTtlSeconds: number): Promise<string> {
  const access = randomToken('sat_')
  await db
    .insertInto('oauth_tokens')
    .values({ token_hash: hashSecret(access), grant_id: grantId, kind: 'access', expires_at: Date.now() + accessTtlSeconds * 1000 })
    .execute()
  return access
}

/** Looks a token up; expired access tokens are not found. */
export async function findToken(db: SandboxDb, token: string, kind: 'access' | 'refresh') {
  const row = await db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .select(['oauth_tokens.grant_id', 'oauth_tokens.expires_at', 'oauth_grants.user_id', 'oauth_grants.client_id', 'oauth_grants.scopes'])
    .where('oauth_tokens.token_hash', '=', hashSecret(token))
    .where('oauth_tokens.kind', '=', kind)
    .executeTakeFirst()
  if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined
  const principal: Principal = {
    user: row.user_id,
    client: row.client_id,
    grantId: row.grant_id,
    scopes: new Set(row.scopes.split(' ').filter(Boolean)),
  }
  return principal
}

/** Ends a grant: every access and refresh token of it stops working at once. */
export async function revokeGrant(db: SandboxDb, grantId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oauth_tokens').where('grant_id', '=', grantId).execute()
    await trx.deleteFrom('oauth_grants').where('id', '=', grantId).execute()
  })
}

/** Ends every grant a user gave one app (the connections page's Revoke). */
export async function revokeClient(db: SandboxDb, user: string, client: string): Promise<number> {
  const grants = await db
    .selectFrom('oauth_grants')
    .select('id')
    .where('user_id', '=', user)
    .where('client_id', '=', client)
    .execute()
  for (const { id } of grants) await revokeGrant(db, id)
  return grants.length
}

/** The apps a user has granted access to, with the union of their scopes. */
export async function listConnections(db: SandboxDb, user: string) {
  const rows = await db
    .selectFrom('oauth_grants')
    .select(['client_id', 'scopes', 'created'])
    .where('user_id', '=', user)
    .orderBy('created')
    .execute()
  const byClient = new Map<string, { client: string; scopes: Set<string>; since: string }>()
  for (const row of rows) {
    const entry = byClient.get(row.client_id) ?? { client: row.client_id, scopes: new Set<string>(), since: row.created }
    for (const s of row.scopes.split(' ').filter(Boolean)) entry.scopes.add(s)
    byClient.set(row.client_id, entry)
  }
  return [...byClient.values()].map((e) => ({ client: e.client, scopes: [...e.scopes].sort(), since: e.since }))
}
