import type { Generated } from 'kysely'

/** The sandbox provider's own tables. Nothing here is shared with the connector. */
export interface SandboxDatabase {
  users: UserTable
  task_lists: TaskListTable
  tasks: TaskTable
  surface_items: SurfaceItemTable
  oauth_codes: OAuthCodeTable
  oauth_grants: OAuthGrantTable
  oauth_tokens: OAuthTokenTable
  sessions: SessionTable
  search_sitemaps: SearchSitemapTable
  added_sites: AddedSiteTable
  added_accounts: AddedAccountTable
  added_properties: AddedPropertyTable
}

interface UserTable {
  id: string
  created: string
}

export interface TaskListTable {
  /** Creation order; the order of list_task_lists and its page cursor. */
  seq: Generated<number>
  id: string
  user_id: string
  title: string
  updated: string
}

export interface TaskTable {
  id: string
  user_id: string
  list_id: string
  /** Null for a top-level task. */
  parent_id: string | null
  /** Opaque fractional key: lexicographic order is sibling order. */
  position: string
  title: string
  notes: string | null
  status: 'needsAction' | 'completed'
  /** The scheduled day, YYYY-MM-DD: the time of day is never kept. */
  due: string | null
  completed: string | null
  updated: string
  hidden: number
  deleted: number
  /** Set on every task of one delete, so a restore brings back exactly what it removed. */
  deleted_at: string | null
  recurring: number
  /** JSON of AssignmentInfo, for tasks assigned from a document or a chat space. */
  assignment: string | null
  /** JSON array of link objects. */
  links: string | null
}

/** The original of an assigned task, in its source surface (a document or a chat space). */
interface SurfaceItemTable {
  id: string
  user_id: string
  surface_type: 'DOCUMENT' | 'SPACE'
  title: string
  deleted: number
  created: string
}

interface OAuthCodeTable {
  /** SHA-256 of the code: codes are never stored in plain text. */
  code_hash: string
  user_id: string
  client_id: string
  redirect_uri: string
  scopes: string
  code_challenge: string
  expires_at: number
  /** Set by the exchange; a second exchange revokes this grant. */
  grant_id: string | null
  /** The OpenID Connect nonce of the request, echoed in the ID token. */
  nonce: string | null
  /** 0 when the exchange gives no refresh token; null (older codes) or 1 when it does. */
  refresh: number | null
}

interface OAuthGrantTable {
  id: string
  user_id: string
  client_id: string
  /** Space-separated short scope names. */
  scopes: string
  created: string
}

interface OAuthTokenTable {
  /** SHA-256 of the token. */
  token_hash: string
  grant_id: string
  kind: 'access' | 'refresh'
  /** Unix milliseconds; null for refresh tokens, which live until revoked. */
  expires_at: number | null
  /** Space-separated short names when narrower than the grant's (a narrowing refresh); else null. */
  scopes: string | null
}

interface SessionTable {
  /** SHA-256 of the sign-in cookie. */
  session_hash: string
  user_id: string
  created: string
}

/** A sitemap submitted to a site of the search-performance API; seeded ones are not stored. */
interface SearchSitemapTable {
  user_id: string
  site_url: string
  /** The sitemap's URL (the API's feedpath). */
  path: string
  /** RFC 3339 time of the latest submission. */
  submitted: string
}

/** A site the control API added to a user; the two built-in ones are not stored. */
interface AddedSiteTable {
  /** The order of addition, which is the order of list_sites after the built-in sites. */
  seq: Generated<number>
  user_id: string
  site_url: string
  created: string
}

/** An analytics account the control API made for a user when a new property named it. */
interface AddedAccountTable {
  /** The order of addition; the account's numeric id is made from it. */
  seq: Generated<number>
  user_id: string
  display_name: string
  created: string
}

/** An analytics property the control API added to a user; the built-in ones are not stored. */
interface AddedPropertyTable {
  /** The order of addition; the property's numeric id is made from it. */
  seq: Generated<number>
  user_id: string
  /** The numeric id of its account: the user's built-in one, or an added one. */
  account_id: string
  display_name: string
  created: string
}
