import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'

/**
 * Both programs' data is for their own user only: the connector's database holds who connected
 * what, digests and sealed credentials, and the vault key file may sit beside it; the sandbox's
 * people are synthetic, but its tokens work at its APIs. Folders are created 0700 and files 0600,
 * whatever the umask; a folder or database file found wider (made by an earlier version, or under
 * a loose umask) is tightened, since it is ours. The vault key file is refused instead when
 * others may read it (packages/connector/src/vault/key-file.ts): a key that may have leaked needs
 * a person, where a database's content is hashed or sealed.
 */

/** The mode of a file only its owner may read and write. */
export const OWNER_ONLY_FILE = 0o600

/** Creates `folder` and any missing parents 0700, and takes others' access off an existing one. */
export function ownerOnlyFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  // A folder of someone else's (a mounted volume) cannot be changed; the files in it are ours.
  tighten(folder, { unlessNotOurs: true })
}

/**
 * The SQLite database `file` and its `-wal` and `-shm`: the file is created 0600 before SQLite
 * opens it, since SQLite gives its new `-wal` and `-shm` files the database file's mode, and any
 * of the three found wider is tightened.
 */
export function ownerOnlyDatabase(file: string): void {
  closeSync(openSync(file, 'a', OWNER_ONLY_FILE))
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tighten(path)
}

/**
 * The permission bits of `path` when its group or others have any access to it; undefined when
 * only its owner has, or on Windows, which has no POSIX modes.
 */
export function openToOthers(path: string): number | undefined {
  if (process.platform === 'win32') return undefined
  const mode = statSync(path).mode & 0o777
  return (mode & 0o077) === 0 ? undefined : mode
}

function tighten(path: string, { unlessNotOurs = false } = {}): void {
  let mode: number | undefined
  try {
    mode = openToOthers(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if (mode === undefined) return
  try {
    chmodSync(path, mode & 0o700)
  } catch (error) {
    if (unlessNotOurs && (error as NodeJS.ErrnoException).code === 'EPERM') return
    throw error
  }
}
