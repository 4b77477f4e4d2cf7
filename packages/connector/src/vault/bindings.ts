/**
 * What each long-lived sealed value is bound to (the vault's additional authenticated data): a
 * value copied to another row, or its row reassigned, no longer opens.
 */

/** An upstream credential: its row and its person. */
export const credentialBinding = (id: string, subject: string) =>
  JSON.stringify(['upstream_credentials', id, subject])

/** What a grant covers: its grant. */
export const coverageBinding = (grantId: string) => JSON.stringify(['grant_links', grantId])

/** The connector's VAPID private key: its row. */
export const pushKeyBinding = (name: string) => JSON.stringify(['push_keys', name])

/** A device's push subscription: its row and its person. */
export const pushDeviceBinding = (id: string, account: string) =>
  JSON.stringify(['push_devices', id, account])
