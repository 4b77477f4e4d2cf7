import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqlite, sqliteDriver, sqliteVersions } from '../src/index.js'

const folder = mkdtempSync(join(tmpdir(), 'countersign-sqlite-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * What the connector and the sandbox do with SQLite, in a process of its own on this runtime:
 * statements prepared by the thousand and collected, and some left alive with the database open
 * at exit. better-sqlite3 12 built against Node 24.19+ headers was seen to abort there (SIGABRT in
 * `Statement::~Statement`, docs/decisions.md "Runtimes, installs and SQLite"); the process must
 * end 0.
 */
const WORKLOAD = `
import { openSqlite } from '@countersign/sqlite'
const database = await openSqlite(process.argv[1])
database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
const insert = database.prepare('INSERT INTO t (v) VALUES (?)')
for (let i = 0; i < 2000; i++) insert.run([String(i)])
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < 2000; i++) database.prepare('SELECT v FROM t WHERE id = ' + i).get([])
  globalThis.gc()
  await new Promise((resolve) => setImmediate(resolve))
}
const kept = database.prepare('SELECT count(*) AS n FROM t')
process.stdout.write(String(kept.get([]).n))
`

describe('SQLite on this runtime', () => {
  it('opens with the driver built for this Node, in write-ahead mode with a busy wait', async () => {
    // Node's own from Node 22.16 on (what kysely needs came in 22.16); better-sqlite3 on Node 20.
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
    const builtIn = major > 22 || (major === 22 && minor >= 16)
    expect(sqliteDriver).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3')
    const database = await openSqlite(join(folder, 'open.db'))
    expect(database.pragma('journal_mode')).toBe('wal')
    expect(database.pragma('busy_timeout')).toBe(5000)
    expect(sqliteVersions(database).driver).toMatch(
      builtIn ? `node:sqlite of Node ${process.version}` : /^better-sqlite3 12\./,
    )
    database.close()
  })

  it('survives its statements being collected, and exits 0 with some still alive', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--conditions=@countersign/source',
        '--import',
        'tsx',
        '--input-type=module',
        '--eval',
        WORKLOAD,
        join(folder, 'collect.db'),
      ],
      { encoding: 'utf8', timeout: 60_000 },
    )
    expect(result.stderr).not.toMatch(/Assertion failed|Aborted|Segmentation/)
    expect(result.signal).toBeNull()
    expect(result.status).toBe(0)
    expect(result.stdout).toBe('2000')
  })
})
