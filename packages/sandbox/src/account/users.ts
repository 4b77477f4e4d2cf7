import { createHash, randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { SandboxDb } from '../db/open.js'

/** A sandbox user is named, not authenticated: anyone may sign in as anyone (a test provider). */
export const userName = z
  .string()
  .min(1, 'user must not be empty')
  .max(64, 'user must be at most 64 characters')
  .regex(/^[A-Za-z0-9._@+-]+$/, 'user may hold only letters, digits and . _ @ + -')

const DEFAULT_LIST_TITLE = 'My Tasks'

/** Creates the user on first use, with the default list "My Tasks". Idempotent. */
export async function ensureUser(db: SandboxDb, user: string): Promise<void> {
  const now = new Date().toISOString()
  await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('users')
      .values({ id: user, created: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst()
    if (Number(created.numInsertedOrUpdatedRows ?? 0) === 0) return
    await trx
      .insertInto('task_lists')
      .values({
        id: randomBytes(12).toString('base64url'),
        user_id: user,
        title: DEFAULT_LIST_TITLE,
        updated: now,
      })
      .execute()
  })
}

/** The user's name as it appears in their sites' domains: `www.{slug}.example`. */
export const userSlug = (user: string) =>
  user
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'user'

/**
 * The sites and analytics properties every user owns from the start: derived from the name
 * alone, so they are the same on every run (one URL-prefix site, one domain property, two
 * numeric property ids). What the control API adds later is stored (account/assets.ts).
 */
export function builtInAssets(user: string): { sites: string[]; properties: string[] } {
  const slug = userSlug(user)
  const digest = createHash('sha256').update(user).digest()
  const propertyId = (offset: number) =>
    String(100_000_000 + (digest.readUInt32BE(offset) % 900_000_000))
  return {
    sites: [`https://www.${slug}.example/`, `sc-domain:${slug}.example`],
    properties: [propertyId(0), propertyId(4)],
  }
}
