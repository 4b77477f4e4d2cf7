/**
 * What each long-lived sealed value is bound to (the vault's additional authenticated data): a
 * value copied to another row, or its row reassigned, no longer opens.
 */

/** An upstream credential: its row and its person. */
export const credentialBinding = (id: string, subject: string) =>
  JSON.stringify(['upstream_credentials', id, subject])

/** What a grant covers: its grant. */
export const coverageBinding = (grantId: string) => JSON.stringify(['grant_links', grantId])
