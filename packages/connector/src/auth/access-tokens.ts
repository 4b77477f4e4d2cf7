import type { Selectable } from 'kysely'
import { z } from 'zod'
import type { PreparedRead, Store } from '../store/open.js'
import type { GrantLinkTable } from '../store/schema.js'
import type { SealedCredential } from '../vault/credentials.js'
import { digest } from './adapter.js'
import { toLink, type GrantLink } from './grants.js'

/**
 * What an access token presented to an MCP endpoint stands for, read in one statement on every
 * request: the token's record (as oidc-provider stored it through adapter.ts), the link of its
 * grant (grants.ts) with what the grant covers, and the grant's sealed upstream credential. Nothing is cached: a token
 * revoked, a grant ended or a credential erased on any replica is refused by every replica at
 * its next request.
 *
 * One prepared read rather than oidc-provider's `AccessToken.find`, then a query for the link and
 * one for the credential: the three through kysely, with the credential's opening, were two
 * thirds of the connector's own work on a call (docs/decisions.md, "The connector's own work").
 * The checks `find` makes of an opaque token are made here of the same record: its kind, its
 * expiry (no clock tolerance is configured), its payload's shape; and a token bound to a key or
 * to a browser session, which this server never issues, is refused.
 */

export interface FoundAccessToken {
  clientId: string
  scopes: string[]
  audience: string[]
  /** Epoch seconds. */
  expiresAt: number
  /** Undefined once the grant has ended. */
  link: GrantLink | undefined
  /** The grant's upstream credential as stored; undefined once erased. */
  credential: SealedCredential | undefined
}

/** The record of an access token as the adapter keeps it (oidc-provider's AccessToken payload). */
const storedAccessToken = z.object({
  exp: z.number(),
  clientId: z.string(),
  grantId: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  scope: z.string().optional(),
  // Bound to a key (DPoP, mTLS) or to a browser session: never issued here, and not a bearer
  // token this check could honour.
  jkt: z.never().optional(),
  'x5t#S256': z.never().optional(),
  expiresWithSession: z.literal(false).optional(),
})

/**
 * One row of READ. A LEFT JOIN gives all of a table's columns or, when nothing joined (the grant
 * ended, the credential erased), all of them null: one key column tells which.
 */
type Row = { payload: string } & OrNull<
  Omit<Selectable<GrantLinkTable>, 'created_at' | 'coverage_key_id'> & { linked_at: number }
> &
  OrNull<Omit<SealedCredential, 'id'>>

type OrNull<T> = { [K in keyof T]: T[K] | null }

const READ = `
  SELECT t.payload,
         g.grant_id, g.credential_id, g.account, g.client_id, g.service, g.created_at AS linked_at,
         g.coverage,
         c.subject, c.scope, c.ciphertext, c.key_id, c.created_at, c.updated_at
    FROM oauth_records t
    LEFT JOIN grant_links g ON g.grant_id = t.grant_id
    LEFT JOIN upstream_credentials c ON c.id = g.credential_id
   WHERE t.kind = 'AccessToken' AND t.id = $1`

export class AccessTokens {
  readonly #read: PreparedRead<Row>

  constructor(store: Pick<Store, 'prepareRead'>) {
    this.#read = store.prepareRead<Row>(READ)
  }

  /** The token and what it stands for; undefined if unknown, expired or malformed. */
  async find(value: string): Promise<FoundAccessToken | undefined> {
    const row = await this.#read(digest(value))
    if (!row) return undefined
    const parsed = storedAccessToken.safeParse(parseJson(row.payload))
    if (!parsed.success) return undefined
    const token = parsed.data
    // oidc-provider's isExpired: expired from the second of `exp` on.
    if (token.exp <= Math.floor(Date.now() / 1000)) return undefined
    return {
      clientId: token.clientId,
      scopes: token.scope ? token.scope.split(' ') : [],
      audience: Array.isArray(token.aud) ? token.aud : [token.aud],
      expiresAt: token.exp,
      link: linkOf(row),
      credential: credentialOf(row),
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function linkOf(row: Row): GrantLink | undefined {
  if (row.grant_id === null) return undefined
  return toLink({
    grant_id: row.grant_id,
    credential_id: row.credential_id!,
    account: row.account!,
    client_id: row.client_id!,
    service: row.service!,
    created_at: row.linked_at!,
    // Null for a grant that covers every one: a joined link is told apart by grant_id.
    coverage: row.coverage,
    coverage_key_id: null,
    // For the person's pages only: not read on a call's path.
    returns_to: null,
  })
}

function credentialOf(row: Row): SealedCredential | undefined {
  if (row.ciphertext === null) return undefined
  return {
    id: row.credential_id!,
    subject: row.subject!,
    scope: row.scope!,
    ciphertext: row.ciphertext,
    key_id: row.key_id!,
    created_at: row.created_at!,
    updated_at: row.updated_at!,
  }
}
