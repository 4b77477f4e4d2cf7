import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { isPostgresUrl } from '../../store/engine.js'
import { inspectStore } from '../../store/inspect.js'
import { SQLITE_FILE } from '../../store/sqlite.js'
import { fix, note, ok, type Finding } from './findings.js'

/** The database: SQLite in the data folder, or PostgreSQL reached, and how far its schema is. */
export async function databaseFinding(
  databaseUrl: string | undefined,
  dataDir: string,
): Promise<Finding> {
  const postgres = Boolean(databaseUrl && isPostgresUrl(databaseUrl))
  const file = join(dataDir, SQLITE_FILE)
  if (!postgres && !existsSync(file)) return note(`SQLite: the first start makes ${file}`)
  const where = postgres ? `PostgreSQL at ${withoutPassword(databaseUrl!)}` : `SQLite ${file}`
  let pending: string[]
  try {
    ;({ pending } = await inspectStore({ databaseUrl, dataDir }))
  } catch (error) {
    return fix(
      `${where} cannot be read: ${reason(error)}`,
      postgres
        ? 'Check DATABASE_URL (host, port, database, user) and that the server accepts this machine.'
        : 'Check that the file is a Countersign database and this user may read it.',
    )
  }
  if (pending.length)
    return note(
      `${where} is reached; the next start brings its schema up to date (${pending.length} step${pending.length === 1 ? '' : 's'})`,
    )
  return ok(`${where} is reached, its schema up to date`)
}

/** The URL as it may be printed: a password never is. */
function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl)
  if (url.password) url.password = '***'
  return url.toString()
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return [code, message].filter(Boolean).join(': ') || String(error)
}
