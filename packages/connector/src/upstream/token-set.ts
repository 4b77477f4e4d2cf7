import type { TokenEndpointResponse } from 'oauth4webapi'
import { z } from 'zod'

/**
 * The token set of one upstream credential: the JSON that the vault seals into the credential's
 * `secret`. It is never logged and never leaves this folder except as an access token handed to
 * the upstream API client.
 */
const tokenSetSchema = z.object({
  access_token: z.string().min(1),
  /** Absent when the provider gave none: the credential then lasts as long as its access token. */
  refresh_token: z.string().min(1).optional(),
  /** Epoch milliseconds; null when the provider did not say (then only a 401 leads to a refresh). */
  expires_at: z.number().int().nullable(),
  /** The scopes the provider granted, full identifiers, space-separated. */
  scope: z.string(),
  token_type: z.string(),
  /** When this access token was obtained by a refresh after the provider rejected the previous one. */
  refreshed_after_rejection_at: z.number().int().optional(),
  /** A replica is refreshing this set until then: the others wait for its result (see refresh.ts). */
  refresh_lease_until: z.number().int().optional(),
})

export type TokenSet = z.infer<typeof tokenSetSchema>

/** Refresh this long before the provider's expiry, so that a token never expires mid-call. */
const REFRESH_MARGIN_MS = 60_000

/**
 * The token set from a token endpoint answer. A refresh answer often leaves out what did not
 * change: the refresh token (the provider does not rotate it, so the old one stays valid) and the
 * scope (unchanged, RFC 6749 §5.1).
 */
export function tokenSetFrom(
  response: TokenEndpointResponse,
  now: number,
  before: { scope: string; refresh_token?: string },
): TokenSet {
  const set: TokenSet = {
    access_token: response.access_token,
    expires_at:
      typeof response.expires_in === 'number' ? now + Math.floor(response.expires_in * 1000) : null,
    scope: response.scope ?? before.scope,
    token_type: response.token_type,
  }
  const refreshToken = response.refresh_token ?? before.refresh_token
  if (refreshToken !== undefined) set.refresh_token = refreshToken
  return set
}

/** Expired, or about to: refresh before using it. */
export const needsRefresh = (set: Pick<TokenSet, 'expires_at'>, now: number) =>
  set.expires_at !== null && set.expires_at - REFRESH_MARGIN_MS <= now

/** Whether another caller (perhaps on another replica) is refreshing this set right now. */
export const leaseHeld = (set: TokenSet, now: number) => (set.refresh_lease_until ?? 0) > now

export function withoutLease(set: TokenSet): TokenSet {
  const { refresh_lease_until: _, ...rest } = set
  return rest
}

export const serializeTokenSet = (set: TokenSet) => JSON.stringify(set)

/** Reads a sealed secret back; the error never quotes the content, which holds tokens. */
export function parseTokenSet(secret: string): TokenSet {
  let json: unknown
  try {
    json = JSON.parse(secret)
  } catch {
    throw new Error('the stored upstream credential is not a token set (not JSON)')
  }
  const parsed = tokenSetSchema.safeParse(json)
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))]
    throw new Error(
      `the stored upstream credential is not a token set (check ${fields.join(', ')})`,
    )
  }
  return parsed.data
}
