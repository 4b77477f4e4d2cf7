import { randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { OWNER_ONLY_FILE, openToOthers, ownerOnlyFolder } from '@countersign/environment'
import { VaultKeyError } from './errors.js'
import { KEY_BYTES, parseKeyList, type VaultKey } from './keys.js'

/** Where the key lives when VAULT_KEY is not set. */
export const KEY_FILE = 'vault.key'

export interface KeyFile {
  keys: VaultKey[]
  path: string
  created: boolean
}

/**
 * Reads `dataDir/vault.key`, or creates it with a new random key readable by its owner only. It
 * holds the VAULT_KEY format, so keys rotate in the file the same way. A file that others can
 * read is refused, not tightened: the key may already have leaked, and that calls for a person.
 */
export function loadOrCreateKeyFile(dataDir: string): KeyFile {
  const path = join(dataDir, KEY_FILE)
  const created = createKeyFile(dataDir, path)
  refuseLoosePermissions(path)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new VaultKeyError(`cannot read the vault key file ${path}: ${(error as Error).message}`)
  }
  return { keys: parseKeyList(text, `the vault key file ${path}`), path, created }
}

/**
 * Writes a whole key under a temporary name, then links it into place: linking fails if the file
 * exists, so two processes starting at once agree on one key, and no reader sees half a file.
 */
function createKeyFile(dataDir: string, path: string): boolean {
  if (existsSync(path)) return false
  ownerOnlyFolder(dataDir)
  const staging = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  const fd = openSync(staging, 'wx', OWNER_ONLY_FILE)
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString('base64')}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(staging, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(staging)
  }
}

function refuseLoosePermissions(path: string) {
  const mode = openToOthers(path)
  if (mode === undefined) return
  throw new VaultKeyError(
    `the vault key file ${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}). ` +
      `If nobody else could have read it, run \`chmod 600 ${path}\`; otherwise treat the key as ` +
      'leaked: set a new key in VAULT_KEY, followed by this one, and rotate.',
  )
}
