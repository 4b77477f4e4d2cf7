import type { SandboxDb } from '../db/open.js'
import { builtInAssets } from './users.js'

/**
 * What a user owns, whoever asks (the search and analytics APIs, the control API, the web
 * view): the built-in sites and properties derived from the name, then those the control API
 * added, oldest first. Added ones are stored; ownership of either kind means the same.
 */

export interface OwnedAssets {
  sites: string[]
  /** Numeric property ids. */
  properties: string[]
}

/** A property the control API added: its id, the account it is in, and its display name. */
export interface AddedProperty {
  id: string
  accountId: string
  displayName: string
}

/**
 * Added properties' ids are ten digits from their order of addition, above every built-in id
 * (nine digits): so no two users' properties share an id, and none is ever handed out twice.
 */
const ADDED_PROPERTY_BASE = 1_000_000_000

const addedPropertyId = (seq: number) => String(ADDED_PROPERTY_BASE + seq)

/** The order of addition an added property's id stands for, or undefined for any other id. */
function addedPropertySeq(id: string): number | undefined {
  const seq = Number(id) - ADDED_PROPERTY_BASE
  return Number.isSafeInteger(seq) && seq > 0 ? seq : undefined
}

export async function ownedAssets(db: SandboxDb, user: string): Promise<OwnedAssets> {
  const builtIn = builtInAssets(user)
  const [sites, properties] = await Promise.all([
    db
      .selectFrom('added_sites')
      .select('site_url')
      .where('user_id', '=', user)
      .orderBy('seq')
      .execute(),
    addedProperties(db, user),
  ])
  return {
    sites: [...builtIn.sites, ...sites.map((row) => row.site_url)],
    properties: [...builtIn.properties, ...properties.map((property) => property.id)],
  }
}

export async function ownsSite(db: SandboxDb, user: string, siteUrl: string): Promise<boolean> {
  if (builtInAssets(user).sites.includes(siteUrl)) return true
  const added = await db
    .selectFrom('added_sites')
    .select('seq')
    .where('user_id', '=', user)
    .where('site_url', '=', siteUrl)
    .executeTakeFirst()
  return added !== undefined
}

export async function ownsProperty(db: SandboxDb, user: string, id: string): Promise<boolean> {
  if (builtInAssets(user).properties.includes(id)) return true
  const seq = addedPropertySeq(id)
  if (seq === undefined) return false
  const added = await db
    .selectFrom('added_properties')
    .select('seq')
    .where('seq', '=', seq)
    .where('user_id', '=', user)
    .executeTakeFirst()
  return added !== undefined
}

/** The properties added to a user, oldest first. */
export async function addedProperties(db: SandboxDb, user: string): Promise<AddedProperty[]> {
  const rows = await db
    .selectFrom('added_properties')
    .select(['seq', 'account_id', 'display_name'])
    .where('user_id', '=', user)
    .orderBy('seq')
    .execute()
  return rows.map((row) => ({
    id: addedPropertyId(row.seq),
    accountId: row.account_id,
    displayName: row.display_name,
  }))
}

/** Adds a site to the user's; a site they already own stays as it is. */
export async function addSite(db: SandboxDb, user: string, siteUrl: string): Promise<void> {
  if (builtInAssets(user).sites.includes(siteUrl)) return
  await db
    .insertInto('added_sites')
    .values({ user_id: user, site_url: siteUrl, created: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'site_url']).doNothing())
    .execute()
}

/** Adds a property to the user's, in the account given; returns its new numeric id. */
export async function addProperty(
  db: SandboxDb,
  user: string,
  accountId: string,
  displayName: string,
): Promise<string> {
  const { seq } = await db
    .insertInto('added_properties')
    .values({
      user_id: user,
      account_id: accountId,
      display_name: displayName,
      created: new Date().toISOString(),
    })
    .returning('seq')
    .executeTakeFirstOrThrow()
  return addedPropertyId(seq)
}
