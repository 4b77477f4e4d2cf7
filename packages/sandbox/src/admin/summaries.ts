import { createHash } from 'node:crypto'
import { z } from 'zod'
import { invalidArgument } from '../http/errors.js'
import { decodePageToken, encodePageToken } from '../http/page-token.js'
import type { AnalyticsAccount } from './accounts.js'

/**
 * accountSummaries.list of the Analytics Admin API: a page of the caller's accounts, each with
 * summaries of its properties. Pages are counted in accounts (50 unless asked, at most 200:
 * more is coerced to 200, as Google does); a page token resumes after the last account of its
 * page, and only with the pageSize of the call that gave it, as Google asks.
 */

const DEFAULT_PAGE_SIZE = 50
const MAX_PAGE_SIZE = 200
const INT32_MAX = 2_147_483_647

export const summariesQuery = z.object({
  pageSize: z
    .string()
    .regex(/^\d+$/, 'give a whole number of accounts (0 or none: 50; above 200: 200)')
    .refine((text) => Number(text) <= INT32_MAX, `must be at most ${INT32_MAX}`)
    .optional(),
  pageToken: z.string().optional(),
})

type SummariesQuery = z.output<typeof summariesQuery>

/** Where the previous page stopped, for whom, and at what page size. */
const cursor = z.object({ u: z.string(), n: z.number().int(), a: z.number().int() })

/** A short digest of the user, so that one user's token does not page another's accounts. */
const ownerOf = (user: string) =>
  createHash('sha256').update(`account-summaries\n${user}`).digest('base64url').slice(0, 12)

export function listAccountSummaries(
  accounts: AnalyticsAccount[],
  user: string,
  query: SummariesQuery,
) {
  const pageSize = Math.min(Number(query.pageSize ?? 0) || DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const after = query.pageToken ? resumeAfter(query.pageToken, user, pageSize) : -1
  const rest = accounts.filter((account) => account.order > after)
  const page = rest.slice(0, pageSize)
  const more = rest.length > pageSize
  return {
    // Google's JSON leaves an empty list out.
    ...(page.length > 0 && { accountSummaries: page.map(summaryJson) }),
    ...(more && {
      nextPageToken: encodePageToken({ u: ownerOf(user), n: pageSize, a: page.at(-1)!.order }),
    }),
  }
}

/** The order of the last account the token's page gave, once the token is checked. */
function resumeAfter(token: string, user: string, pageSize: number): number {
  const at = decodePageToken(cursor, token)
  if (!at || at.u !== ownerOf(user))
    throw invalidArgument(
      'Invalid pageToken: give the nextPageToken of a previous page of this listing, as it came.',
    )
  if (at.n !== pageSize)
    throw invalidArgument(
      `Invalid pageSize with this pageToken: every other parameter must match the call that gave the token, which had pageSize ${at.n}.`,
    )
  return at.a
}

function summaryJson(account: AnalyticsAccount) {
  return {
    name: `accountSummaries/${account.id}`,
    account: `accounts/${account.id}`,
    displayName: account.displayName,
    // An account without properties has no propertySummaries at all, as Google answers.
    ...(account.properties.length > 0 && {
      propertySummaries: account.properties.map((property) => ({
        property: `properties/${property.id}`,
        displayName: property.displayName,
        propertyType: 'PROPERTY_TYPE_ORDINARY',
        parent: `accounts/${account.id}`,
      })),
    }),
  }
}
