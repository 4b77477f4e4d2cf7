import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'

/**
 * The data folder and the database files in it are for the connector's own user only: the
 * database holds who connected what, digests and sealed credentials, and the vault key file may sit
 * beside it. Folders are created 0700 and database files 0600, whatever the umask; one found wider
 * (made by an earlier version, or under a loose umask) is tightened, since it is ours. The vault key
 * file is refused instead when others may read it (vault/key-file.ts): a key that may have leaked
 * needs a person, where a database's content is hashed or sealed.
 */

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
  closeSync(openSync(file, 'a', 0o600))
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tighten(path)
}

function tighten(path: string, { unlessNotOurs = false } = {}): void {
  // Windows has no POSIX modes.
  if (process.platform === 'win32') return
  let mode: number
  try {
    mode = statSync(path).mode & 0o777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if ((mode & 0o077) === 0) return
  try {
    chmodSync(path, mode & 0o700)
  } catch (error) {
    if (unlessNotOurs && (error as NodeJS.ErrnoException).code === 'EPERM') return
    throw error
  }
}
