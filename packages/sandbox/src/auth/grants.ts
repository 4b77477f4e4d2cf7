import type { Kysely } from 'kysely'
import { hashSecret, randomToken } from '../core/secrets.js'
import type { SandboxDb } from '../db/open.js'
import type { SandboxDatabase } from '../db/schema.js'

/** The store, or a transaction on it. */
type Store = Kysely<SandboxDatabase>

/** What a valid access token stands for. */
export interface Principal {
  user: string
  client: string
  grantId: string
  scopes: ReadonlySet<string>
}

interface IssuedTokens {
  access_token: string
  /** Absent when the authorization did not ask for offline access (the Google dialect). */
  refresh_token?: string
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
  return db.transaction().execute((trx) => insertGrant(trx, grant, accessTtlSeconds))
}

async function insertGrant(
  store: Store,
  grant: { user: string; client: string; scopes: string[] },
  accessTtlSeconds: number,
  withRefreshToken = true,
): Promise<{ grantId: string; tokens: IssuedTokens }> {
  const grantId = randomToken('', 16)
  const access = randomToken('sat_')
  const refresh = withRefreshToken ? randomToken('srt_') : undefined
  await store
    .insertInto('oauth_grants')
    .values({
      id: grantId,
      user_id: grant.user,
      client_id: grant.client,
      scopes: grant.scopes.join(' '),
      created: new Date().toISOString(),
    })
    .execute()
  await store
    .insertInto('oauth_tokens')
    .values([
      {
        token_hash: hashSecret(access),
        grant_id: grantId,
        kind: 'access',
        expires_at: Date.now() + accessTtlSeconds * 1000,
      },
      ...(refresh === undefined
        ? []
        : [
            {
              token_hash: hashSecret(refresh),
              grant_id: grantId,
              kind: 'refresh' as const,
              expires_at: null,
            },
          ]),
    ])
    .execute()
  return {
    grantId,
    tokens: {
      access_token: access,
      ...(refresh !== undefined && { refresh_token: refresh }),
      expires_in: accessTtlSeconds,
      token_type: 'Bearer',
      scope: grant.scopes,
    },
  }
}

/**
 * A new access token for a grant (the refresh grant); the refresh token itself is kept.
 * `scopes`, when given, narrows the new token below the grant's scopes.
 */
export async function issueAccessToken(
  db: SandboxDb,
  grantId: string,
  accessTtlSeconds: number,
  scopes?: string[],
): Promise<string> {
  const access = randomToken('sat_')
  const now = Date.now()
  await db.transaction().execute(async (trx) => {
    // Expired access tokens of this grant are of no use to anyone: drop them as we go.
    await trx
      .deleteFrom('oauth_tokens')
      .where('grant_id', '=', grantId)
      .where('kind', '=', 'access')
      .where('expires_at', '<=', now)
      .execute()
    await trx
      .insertInto('oauth_tokens')
      .values({
        token_hash: hashSecret(access),
        grant_id: grantId,
        kind: 'access',
        expires_at: now + accessTtlSeconds * 1000,
        scopes: scopes ? scopes.join(' ') : null,
      })
      .execute()
  })
  return access
}

/** Looks a token up; expired access tokens are not found. */
export async function findToken(db: SandboxDb, token: string, kind: 'access' | 'refresh') {
  const row = await db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .select([
      'oauth_tokens.grant_id',
      'oauth_tokens.expires_at',
      'oauth_tokens.scopes as token_scopes',
      'oauth_grants.user_id',
      'oauth_grants.client_id',
      'oauth_grants.scopes',
    ])
    .where('oauth_tokens.token_hash', '=', hashSecret(token))
    .where('oauth_tokens.kind', '=', kind)
    .executeTakeFirst()
  if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined
  const principal: Principal = {
    user: row.user_id,
    client: row.client_id,
    grantId: row.grant_id,
    scopes: new Set((row.token_scopes ?? row.scopes).split(' ').filter(Boolean)),
  }
  return principal
}

/** Ends a grant: every access and refresh token of it stops working at once. */
async function deleteGrant(store: Store, grantId: string): Promise<void> {
  await store.deleteFrom('oauth_tokens').where('grant_id', '=', grantId).execute()
  await store.deleteFrom('oauth_grants').where('id', '=', grantId).execute()
}

/**
 * RFC 7009 revocation: an access or a refresh token (expired or not) ends its whole grant, or,
 * as at Google, every grant its person gave the same client. Returns whether the token was
 * known; an unknown token is not an error.
 */
export async function revokeToken(
  db: SandboxDb,
  token: string,
  ends: 'grant' | 'person-and-client' = 'grant',
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('oauth_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
      .select(['oauth_tokens.grant_id', 'oauth_grants.user_id', 'oauth_grants.client_id'])
      .where('oauth_tokens.token_hash', '=', hashSecret(token))
      .executeTakeFirst()
    if (!row) return false
    if (ends === 'grant') await deleteGrant(trx, row.grant_id)
    else await deleteClientGrants(trx, row.user_id, row.client_id)
    return true
  })
}

/** Ends every grant a user gave one app (the connections page's Revoke). */
export async function revokeClient(db: SandboxDb, user: string, client: string): Promise<number> {
  return db.transaction().execute((trx) => deleteClientGrants(trx, user, client))
}

async function deleteClientGrants(store: Store, user: string, client: string): Promise<number> {
  const grants = await store
    .selectFrom('oauth_grants')
    .select('id')
    .where('user_id', '=', user)
    .where('client_id', '=', client)
    .execute()
  for (const { id } of grants) await deleteGrant(store, id)
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
    const entry = byClient.get(row.client_id) ?? {
      client: row.client_id,
      scopes: new Set<string>(),
      since: row.created,
    }
    for (const s of row.scopes.split(' ').filter(Boolean)) entry.scopes.add(s)
    byClient.set(row.client_id, entry)
  }
  return [...byClient.values()].map((e) => ({
    client: e.client,
    scopes: [...e.scopes].sort(),
    since: e.since,
  }))
}

/** What an authorization code stands for: one person's consent, bound to one request. */
interface CodeGrant {
  user: string
  client: string
  redirectUri: string
  /** Short scope names. */
  scopes: string[]
  /** base64url(SHA-256(code_verifier)): only S256 is supported. */
  codeChallenge: string
  /** The OpenID Connect nonce of the request, if it had one. */
  nonce?: string
  /** Whether the exchange gives a refresh token. */
  refreshToken: boolean
}

const CODE_TTL_SECONDS = 600

/** Issues a single-use authorization code; only its hash is stored. */
export async function storeCode(db: SandboxDb, grant: CodeGrant): Promise<string> {
  const code = randomToken('sac_')
  const now = Date.now()
  await db.transaction().execute(async (trx) => {
    // Codes an hour past expiry cannot even be replayed usefully any more: forget them.
    await trx
      .deleteFrom('oauth_codes')
      .where('expires_at', '<', now - 3_600_000)
      .execute()
    await trx
      .insertInto('oauth_codes')
      .values({
        code_hash: hashSecret(code),
        user_id: grant.user,
        client_id: grant.client,
        redirect_uri: grant.redirectUri,
        scopes: grant.scopes.join(' '),
        code_challenge: grant.codeChallenge,
        expires_at: now + CODE_TTL_SECONDS * 1000,
        grant_id: null,
        nonce: grant.nonce ?? null,
        refresh: grant.refreshToken ? 1 : 0,
      })
      .execute()
  })
  return code
}

type Redemption =
  | { ok: true; tokens: IssuedTokens; grant: CodeGrant }
  | { ok: false; reason: 'unknown' | 'replayed' | 'expired' | 'mismatch'; message: string }

/**
 * Exchanges a code for a new grant, in one transaction so a code is redeemed at most once.
 * `check` returns why the exchange request does not match the code (client, redirect_uri,
 * PKCE), or undefined; a failed check leaves the code unused. A code presented again after
 * its first exchange revokes the grant issued from it (RFC 6749 §4.1.2).
 */
export async function redeemCode(
  db: SandboxDb,
  code: string,
  check: (grant: CodeGrant) => string | undefined,
  accessTtlSeconds: number,
): Promise<Redemption> {
  return db.transaction().execute(async (trx): Promise<Redemption> => {
    const row = await trx
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', hashSecret(code))
      .executeTakeFirst()
    if (!row) return { ok: false, reason: 'unknown', message: 'The authorization code is unknown.' }
    if (row.grant_id !== null) {
      await deleteGrant(trx, row.grant_id)
      return {
        ok: false,
        reason: 'replayed',
        message:
          'The authorization code was already used; the tokens issued from it are now revoked.',
      }
    }
    if (row.expires_at <= Date.now()) {
      return { ok: false, reason: 'expired', message: 'The authorization code has expired.' }
    }
    const grant: CodeGrant = {
      user: row.user_id,
      client: row.client_id,
      redirectUri: row.redirect_uri,
      scopes: row.scopes.split(' ').filter(Boolean),
      codeChallenge: row.code_challenge,
      ...(row.nonce !== null && { nonce: row.nonce }),
      refreshToken: row.refresh !== 0,
    }
    const mismatch = check(grant)
    if (mismatch !== undefined) return { ok: false, reason: 'mismatch', message: mismatch }
    const { grantId, tokens } = await insertGrant(trx, grant, accessTtlSeconds, grant.refreshToken)
    await trx
      .updateTable('oauth_codes')
      .set({ grant_id: grantId })
      .where('code_hash', '=', row.code_hash)
      .execute()
    return { ok: true, tokens, grant }
  })
}
