import { createHash } from 'node:crypto'
import { addedProperties, addProperty } from '../account/assets.js'
import { builtInAssets } from '../account/users.js'
import { siteKindOf } from '../analytics/property.js'
import type { SandboxDb } from '../db/open.js'
import { businessAccountName, builtInPropertyName, personalAccountName } from './names.js'

/**
 * A user's Google Analytics accounts, as the Admin API lists them: the business account that
 * holds the two built-in properties, a personal account with none, then the accounts the
 * control API made for added properties. Built-in ones are derived from the user name; added
 * ones are stored.
 */

export interface AnalyticsAccount {
  /** The numeric id of `accounts/{id}`. */
  id: string
  displayName: string
  /** Where the account comes in the listing: built-in ones first, then added ones in order. */
  order: number
  properties: { id: string; displayName: string }[]
}

/**
 * Built-in accounts' ids are eight digits from the user name; added ones nine digits from their
 * order of addition, so the two never meet and no added id is handed out twice.
 */
const ADDED_ACCOUNT_BASE = 100_000_000

const addedAccountId = (seq: number) => String(ADDED_ACCOUNT_BASE + seq)

function builtInAccounts(user: string) {
  const digest = createHash('sha256').update(`analytics-accounts\n${user}`).digest()
  const accountId = (offset: number) =>
    String(10_000_000 + (digest.readUInt32BE(offset) % 90_000_000))
  return {
    business: { id: accountId(0), displayName: businessAccountName(user) },
    personal: { id: accountId(4), displayName: personalAccountName(user) },
  }
}

export async function accountsOf(db: SandboxDb, user: string): Promise<AnalyticsAccount[]> {
  const { business, personal } = builtInAccounts(user)
  const [added, properties] = await Promise.all([
    db
      .selectFrom('added_accounts')
      .select(['seq', 'display_name'])
      .where('user_id', '=', user)
      .orderBy('seq')
      .execute(),
    addedProperties(db, user),
  ])
  const accounts: AnalyticsAccount[] = [
    {
      ...business,
      order: 0,
      properties: builtInAssets(user).properties.map((id, index) => ({
        id,
        displayName: builtInPropertyName(user, index, siteKindOf(user, id)),
      })),
    },
    { ...personal, order: 1, properties: [] },
    ...added.map((row) => ({
      id: addedAccountId(row.seq),
      displayName: row.display_name,
      order: 1 + row.seq,
      properties: [],
    })),
  ]
  const byId = new Map(accounts.map((account) => [account.id, account]))
  for (const { id, accountId, displayName } of properties)
    byId.get(accountId)?.properties.push({ id, displayName })
  return accounts
}

/**
 * Adds a property to the user's, in the account of that display name (a new account of the
 * user's when none has it) or, without one, in the business account. Returns its numeric id.
 */
export async function addPropertyToAccount(
  db: SandboxDb,
  user: string,
  displayName: string,
  accountName?: string,
): Promise<string> {
  const { business, personal } = builtInAccounts(user)
  return db.transaction().execute(async (trx) => {
    let accountId = business.id
    if (accountName !== undefined && accountName !== business.displayName) {
      accountId =
        accountName === personal.displayName
          ? personal.id
          : await addedAccountNamed(trx, user, accountName)
    }
    return addProperty(trx, user, accountId, displayName)
  })
}

/** The id of the user's added account of that name, made now if there is none. */
async function addedAccountNamed(db: SandboxDb, user: string, displayName: string) {
  const known = await db
    .selectFrom('added_accounts')
    .select('seq')
    .where('user_id', '=', user)
    .where('display_name', '=', displayName)
    .executeTakeFirst()
  if (known) return addedAccountId(known.seq)
  const { seq } = await db
    .insertInto('added_accounts')
    .values({ user_id: user, display_name: displayName, created: new Date().toISOString() })
    .returning('seq')
    .executeTakeFirstOrThrow()
  return addedAccountId(seq)
}
