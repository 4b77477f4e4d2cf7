/**
 * The connector's tables, as kysely sees them. Column types mean the same on SQLite and
 * PostgreSQL: text, integer, and bigint for instants in epoch milliseconds (read back as numbers
 * on both engines). The connector keeps no user data: see DESIGN.md §5 "What is kept".
 */
export interface ConnectorDatabase {
  upstream_credentials: UpstreamCredentialTable
  audit_events: AuditEventTable
}

/** A person's credential at the provider (its token set), sealed by the vault. */
export interface UpstreamCredentialTable {
  id: string
  /** The person's identity at the provider (the userinfo `sub`). */
  subject: string
  /** The scopes the provider granted to the connector's client, space-separated as in OAuth. */
  scope: string
  /** The vault's sealed envelope of the token set; never plaintext. */
  ciphertext: string
  /** The key that sealed `ciphertext`: rotation finds the rows still under an old key by it. */
  key_id: string
  created_at: number
  updated_at: number
}

/** One decision about one tool call. Never a payload: no arguments, no results. */
export interface AuditEventTable {
  id: string
  at: number
  grant_id: string
  tool: string
  decision: string
  /** The provider's HTTP status, or null when no upstream call was made. */
  upstream_status: number | null
}
