import pg from 'pg'

/**
 * The bench's own PostgreSQL database, on the server of DATABASE_URL (or the local one), made at
 * the start and dropped at the end; and the grants beyond the real ones, copied in SQL.
 */

const DATABASE = 'countersign_bench_org'
const SERVER = 'postgres://postgres@127.0.0.1:5432/postgres'

export interface BenchDatabase {
  /** The database's URL, for the replicas. */
  readonly url: string
  /** A connection of the bench's own to it. */
  readonly client: pg.Client
  drop(): Promise<void>
}

/** Makes the database afresh (a leftover of an interrupted run is dropped first). */
export async function benchDatabase(name = DATABASE): Promise<BenchDatabase> {
  const server = new URL(
    /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '')
      ? process.env.DATABASE_URL!
      : SERVER,
  )
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server.toString() })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  const dropIt = `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`
  await admin(dropIt)
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  return {
    url: url.toString(),
    client,
    async drop() {
      await client.end().catch(() => {})
      await admin(dropIt)
    },
  }
}

/** The Tasks grants in the store, and the people holding one. */
export async function grantsHeld(client: pg.Client): Promise<{ grants: number; people: number }> {
  const { rows } = await client.query<{ grants: number; people: number }>(
    `SELECT count(*)::int AS grants, count(DISTINCT account)::int AS people
       FROM grant_links WHERE service = 'tasks'`,
  )
  return rows[0]!
}

/**
 * Brings the store to `total` Tasks grants by copying the real ones (those the OAuth flow made),
 * in turn: beyond a thousand, real authorizations would take the bench's whole time. A copy is a
 * grant the connector reads like any other - a person of its own (a new account), holding a
 * provider credential of their own and an assistant's grant of the authorization server - with
 * new ids: its `upstream_credentials` row (subject: the new account), its `grant_links` row, and
 * its `Grant` record in `oauth_records` (id: the SHA-256 of the grant id, as the adapter stores
 * it; the payload's `accountId`: the new account). What the copies cannot do is be used: their
 * sealed credential is bound to the real row's id, and nobody holds a token for them. Copy `k`'s
 * ids end in `-copy-k`.
 */
export async function copyGrants(client: pg.Client, total: number): Promise<void> {
  const copied = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM grant_links WHERE grant_id LIKE '%-copy-%'`,
  )
  const { grants } = await grantsHeld(client)
  const from = copied.rows[0]!.n
  const more = total - grants
  if (more <= 0) return
  await client.query('BEGIN')
  try {
    // Copy k of real grant number (k mod the real grants), for k from `from` on.
    await client.query(
      `CREATE TEMP TABLE copies ON COMMIT DROP AS
         SELECT g.grant_id, g.credential_id, g.account, g.client_id, g.service, g.created_at,
                g.grant_id || '-copy-' || k AS new_grant,
                g.credential_id || '-copy-' || k AS new_credential,
                g.account || '-copy-' || k AS new_account
           FROM generate_series($1::int, $2::int) AS k
           JOIN (SELECT *, (row_number() OVER (ORDER BY grant_id) - 1)::int AS i
                   FROM grant_links
                  WHERE service = 'tasks' AND grant_id NOT LIKE '%-copy-%') AS g
             ON g.i = k % (SELECT count(*) FROM grant_links
                            WHERE service = 'tasks' AND grant_id NOT LIKE '%-copy-%')`,
      [from, from + more - 1],
    )
    await client.query(
      `INSERT INTO upstream_credentials (id, subject, scope, ciphertext, key_id, created_at, updated_at)
         SELECT c.new_credential, c.new_account, u.scope, u.ciphertext, u.key_id, u.created_at, u.updated_at
           FROM copies c JOIN upstream_credentials u ON u.id = c.credential_id`,
    )
    await client.query(
      `INSERT INTO grant_links (grant_id, credential_id, account, client_id, service, created_at)
         SELECT new_grant, new_credential, new_account, client_id, service, created_at FROM copies`,
    )
    await client.query(
      `INSERT INTO oauth_records (kind, id, grant_id, uid, user_code, payload, expires_at, consumed_at)
         SELECT 'Grant',
                rtrim(translate(encode(sha256(convert_to(c.new_grant, 'UTF8')), 'base64'), '+/', '-_'), '='),
                c.new_grant, NULL, NULL,
                (r.payload::jsonb || jsonb_build_object('accountId', c.new_account))::text,
                r.expires_at, NULL
           FROM copies c JOIN oauth_records r ON r.kind = 'Grant' AND r.grant_id = c.grant_id`,
    )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
  const now = await grantsHeld(client)
  if (now.grants !== total || now.people !== total)
    throw new Error(`copying grants: ${now.grants} grants of ${now.people} people, not ${total}`)
}
