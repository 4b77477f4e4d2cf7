import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'

/**
 * The sandbox's data folder and database are for its own user only (its people are synthetic,
 * but its tokens work at its APIs): folders are created 0700 and the database files 0600, whatever
 * the umask, and one found wider (made by an earlier version) is tightened, since it is ours.
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
