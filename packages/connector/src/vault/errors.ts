/**
 * The vault's errors. Their messages name variables, files and key ids, never key material or
 * plaintext, so they are safe to log.
 */

/** The configured keys cannot be used: a malformed VAULT_KEY, or a key file to fix. */
export class VaultKeyError extends Error {
  override name = 'VaultKeyError'
}

/** A sealed value that does not open: altered, bound to another record, or under an unknown key. */
export class SealedValueError extends Error {
  override name = 'SealedValueError'
}
