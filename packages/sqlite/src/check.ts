#!/usr/bin/env node
/**
 * Run by `npm ci` (the root's prepare): fails the install when SQLite's driver for this Node did
 * not install or build, instead of a crash at `npm start`. npm 12 installs a dependency whose
 * install step it did not run and exits 0 (docs/operations.md, "Node.js versions").
 */
import { openSqlite, sqliteVersions } from './index.js'

try {
  const database = await openSqlite(':memory:')
  const { driver, sqlite } = sqliteVersions(database)
  database.close()
  process.stdout.write(`sqlite: ${driver}, SQLite ${sqlite}, on Node ${process.version}\n`)
} catch (error) {
  const cause = (error as Error).cause as Error | undefined
  process.stderr.write(
    `${(error as Error).message}\n${cause ? `  (${cause.message.split('\n')[0]})\n` : ''}`,
  )
  process.exitCode = 1
}
