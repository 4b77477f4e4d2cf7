import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openToOthers } from '@countersign/environment'
import { isPostgresUrl } from '../../store/engine.js'
import { KEY_FILE, loadOrCreateKeyFile } from '../../vault/key-file.js'
import { parseKeyList } from '../../vault/keys.js'
import { VaultKeyError } from '../../vault/errors.js'
import { fix, note, ok, type Finding } from './findings.js'

const BACKUP =
  'Back it up apart from the database: without it no stored connection opens, and with both anyone can open them.'

/** The data folder: there (or made at the first start), a folder, writable, for this user only. */
export function dataFolderFinding(dataDir: string): Finding {
  if (!existsSync(dataDir))
    return note(
      `DATA_DIR ${dataDir} does not exist yet: the first start makes it, for this user only`,
    )
  if (!statSync(dataDir).isDirectory())
    return fix(`DATA_DIR ${dataDir} is a file, not a folder: set DATA_DIR to a folder`)
  try {
    accessSync(dataDir, constants.W_OK)
  } catch {
    return fix(`DATA_DIR ${dataDir} is not writable by this user: change its owner, or DATA_DIR`)
  }
  const mode = openToOthers(dataDir)
  if (mode !== undefined)
    return note(
      `DATA_DIR ${dataDir} is open to others (mode ${octal(mode)}): the first start takes their access off`,
    )
  return ok(`DATA_DIR ${dataDir} is a writable folder, for this user only`)
}

/**
 * The keys that seal the provider's tokens: VAULT_KEY (required with PostgreSQL), or the key
 * file in the data folder, made at the first start; read as the connector reads them, made never.
 */
export function vaultKeyFinding(
  vaultKey: string | undefined,
  dataDir: string,
  databaseUrl: string | undefined,
): Finding {
  try {
    if (vaultKey?.trim()) {
      const keys = parseKeyList(vaultKey, 'VAULT_KEY')
      return ok(
        `VAULT_KEY holds ${keys.length === 1 ? 'a key' : `${keys.length} keys; the first seals`}`,
        BACKUP,
      )
    }
    if (databaseUrl && isPostgresUrl(databaseUrl))
      return fix(
        'VAULT_KEY is not set, and PostgreSQL needs it: every replica seals with the same key. Make one with `openssl rand -base64 32` and set it on each replica.',
      )
    const file = join(dataDir, KEY_FILE)
    if (!existsSync(file))
      return note(`the first start makes the vault key in ${file}, for this user only`, BACKUP)
    loadOrCreateKeyFile(dataDir)
    return ok(`the vault key is in ${file}, for this user only`, BACKUP)
  } catch (error) {
    if (error instanceof VaultKeyError) return fix(error.message)
    throw error
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0')
