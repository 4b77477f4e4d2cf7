/**
 * The connector's tables, as kysely sees them. Column types mean the same on SQLite and
 * PostgreSQL: text, integer, and bigint for instants in epoch milliseconds (read back as numbers
 * on both engines). The connector keeps no user data: see docs/design.md, "What is kept".
 */
export interface ConnectorDatabase {
  upstream_credentials: UpstreamCredentialTable
  audit_events: AuditEventTable
  upstream_authorizations: UpstreamAuthorizationTable
  oauth_records: OAuthRecordTable
  grant_links: GrantLinkTable
  person_sessions: PersonSessionTable
  approvals: ApprovalTable
  rate_limits: RateLimitTable
  grant_choices: GrantChoiceTable
  quota_use: QuotaUseTable
  mcp_answers: McpAnswerTable
  push_keys: PushKeyTable
  push_devices: PushDeviceTable
}

/** A client's answer waiting for the replica whose question it answers (src/mcp/answer-box.ts). */
export interface McpAnswerTable {
  /** The client's session: a SHA-256 digest of its session header. */
  session: string
  /** The JSON-RPC id of the question it answers. */
  question_id: number
  /** The answer, sealed by the vault and bound to its session and question. */
  answer: string
  expires_at: number
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
  /** Whose grant it was, recorded with the event (the link ends with the grant). */
  account: string | null
  client_id: string | null
  service: string | null
  /** The approval the event is about (its key); null for events about no one approval. */
  approval_id: string | null
}

/**
 * An authorization at the provider under way (a connection, or a sign-in to the connections
 * page): created when the browser is sent to the provider, taken once when it comes back.
 */
export interface UpstreamAuthorizationTable {
  /** SHA-256 (hex) of the `state` sent to the provider: the state itself is never stored. */
  state_hash: string
  /** 'authorization' (a connection for the authorization server) or 'sign-in'. */
  kind: string
  /** Authorization only: the connector's pending authorization to finish. */
  interaction_uid: string | null
  service: string | null
  /** Authorization only: the short scope names asked for, space-separated. */
  scopes: string | null
  /** The PKCE code verifier, sealed by the vault. */
  code_verifier: string
  /** Sign-in only: where to send the person afterwards, sealed by the vault. */
  return_to: string | null
  expires_at: number
}

/**
 * One record of the authorization server (oidc-provider's models: Client, Grant,
 * AuthorizationCode, AccessToken, RefreshToken, Session, Interaction...). Tokens, codes and other
 * identifiers are kept as SHA-256 digests only; see src/auth/adapter.ts.
 */
export interface OAuthRecordTable {
  /** The model's name, e.g. "AccessToken". */
  kind: string
  /** SHA-256 of the record's id (for a token or code, of the value itself). */
  id: string
  /** The grant the record was issued under (a reference, not a credential); null if none. */
  grant_id: string | null
  /** SHA-256 of a session's uid. */
  uid: string | null
  /** SHA-256 of a device flow user code (unused while that flow is off). */
  user_code: string | null
  /** The model's payload as JSON, without its id; client secrets hashed. */
  payload: string
  /** Epoch milliseconds; null for records that do not expire (clients). */
  expires_at: number | null
  /** Epoch milliseconds when a single-use record (code, rotated refresh token) was used. */
  consumed_at: number | null
}

/** Which upstream credential a grant of the connector's authorization server acts with. */
export interface GrantLinkTable {
  grant_id: string
  credential_id: string
  /** The person: their subject at the provider, the grant's accountId. */
  account: string
  client_id: string
  service: string
  created_at: number
  /**
   * What the grant covers of the person's lists, sites or properties: null for every one, else
   * the chosen ids, sealed by the vault and bound to the grant (src/auth/coverage.ts).
   */
  coverage: string | null
  /** The key that sealed `coverage`; null with it. */
  coverage_key_id: string | null
  /** Where its authorization sent the person back: the redirect's host (and port); null before. */
  returns_to: string | null
}

/**
 * A person choosing what a new grant will cover, between the provider's sign-in and their choice
 * (src/auth/choices.ts): which credential the provider gave, for whom, and until when.
 */
export interface GrantChoiceTable {
  /** SHA-256 of the authorization's interaction uid: the uid itself is never stored. */
  interaction_hash: string
  credential_id: string
  /** The person: their subject at the provider. */
  account: string
  service: string
  /** The short scope names the provider granted, space-separated. */
  scopes: string
  /** The largest form its page could post, drawn with the person's items (form-post.ts). */
  form_bytes: number
  expires_at: number
}

/** A person signed in to the connector's own pages (their connections), through the provider. */
export interface PersonSessionTable {
  /** SHA-256 (hex) of the session cookie's value: the value itself is never stored. */
  id: string
  /** The person: their subject at the provider, as in grant_links.account. */
  subject: string
  created_at: number
  expires_at: number
}

/**
 * A person's approval of one tool call, asked for by an assistant (src/approval). Nothing in it
 * reads in the clear but its metadata: the id and the arguments are digests, the rest is sealed.
 */
export interface ApprovalTable {
  /** SHA-256 (hex) of the id in the approval page's URL: the id itself is never stored. */
  id: string
  grant_id: string
  tool: string
  /** HMAC-SHA-256 (hex) of the call's canonical arguments, under a key derived from the vault. */
  args_digest: string
  /** The tool's access mode: 'auth-token' or 'per-call'. */
  mode: string
  /** 'pending', 'approved', 'declined', or 'expired' (undecided, or approved and unused, in time). */
  status: string
  /** The URL's id, sealed: to hand out the same page again while pending; erased once decided. */
  sealed_id: string | null
  /** The call's arguments and its description, sealed; erased once decided or expired. */
  sealed_call: string | null
  /** The etag the person saw, sealed; erased once used, declined or expired. */
  sealed_if_match: string | null
  created_at: number
  expires_at: number
  decided_at: number | null
  /** When an approved call was let through (single use). */
  used_at: number | null
}

/**
 * A rate limit's counter for one key in its current window (src/store/rate-limits.ts), shared by
 * the replicas on PostgreSQL; unused on SQLite, where the counters live in memory.
 */
export interface RateLimitTable {
  /** `{limit}:{HMAC-SHA-256 (hex)}` of the client address or grant id: never the value itself. */
  key: string
  /** Requests counted in the window. */
  points: number
  /** When the window ends, in epoch milliseconds. */
  expire: number | null
}

/**
 * What each person spent of one of the provider project's daily quotas (src/quotas): a count a
 * day, kept eight days (fair shares look back a week). Never the person's id in plain text.
 */
export interface QuotaUseTable {
  /** A shared quota's name (config/config.ts, SHARED_QUOTA_NAMES). */
  quota: string
  /** The provider's day, `YYYY-MM-DD` in Pacific Time. */
  day: string
  /** HMAC-SHA-256 (hex) of the person's account at the provider, under a key the vault derives. */
  person: string
  /** Queries counted that day. */
  used: number
}

/** The connector's VAPID key pair, by name (`vapid`): its private half sealed. */
export interface PushKeyTable {
  name: string
  public_key: string
  sealed: string
  key_id: string
  created_at: number
}

/** A device of a person's that shows notifications: its push subscription sealed. */
export interface PushDeviceTable {
  id: string
  /** The person's provider account, as grant_links names it. */
  account: string
  /** A keyed digest of the subscription's endpoint: one row a device. */
  endpoint_digest: string
  sealed: string
  key_id: string
  /** What the person calls it on their page: the browser and system it was added from. */
  label: string
  created_at: number
}
