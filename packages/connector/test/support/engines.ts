import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, it } from 'vitest'
import { openStore, type Store, type StoreEngine, type StoreOptions } from '../../src/store/open.js'

/**
 * Runs one store suite on both engines: SQLite in a temporary folder, and PostgreSQL in a fresh
 * database per suite (so test files running in parallel never meet), dropped afterwards.
 *
 * PostgreSQL is DATABASE_URL if that is a postgres URL, else postgres://postgres@127.0.0.1:5432/test.
 * When it cannot be reached, its suites fail on CI (CI=true always has it) and are skipped with a
 * warning elsewhere.
 */

/** Where a store lives: what openStore needs. */
export type StoreLocation = Pick<StoreOptions, 'databaseUrl' | 'dataDir'>

export interface EngineUnderTest {
  name: StoreEngine
  /** The suite's own location, created on first use. */
  location(): Promise<StoreLocation>
  /** Another empty location (for tests that need a database nobody has migrated yet). */
  newLocation(): Promise<StoreLocation>
  /** Opens a store (at the suite's location unless told), closed after the suite. */
  openStore(location?: StoreLocation): Promise<Store>
}

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test'
const envUrl = process.env.DATABASE_URL
const postgresUrl = envUrl && /^postgres(ql)?:\/\//i.test(envUrl) ? envUrl : DEFAULT_POSTGRES_URL
const postgresProblem = await probe(postgresUrl)

if (postgresProblem && process.env.CI !== 'true') {
  console.warn(
    [
      '',
      '!!! PostgreSQL tests SKIPPED: no PostgreSQL at ' +
        redact(postgresUrl) +
        ` (${postgresProblem}).`,
      '!!! Only SQLite was tested. To run them, start PostgreSQL on 127.0.0.1:5432 with a',
      '!!! "test" database (trust auth for postgres), or set DATABASE_URL=postgres://... to a',
      '!!! role that may create databases. CI (.ci/run) always runs them.',
      '',
    ].join('\n'),
  )
}

export function describeEachEngine(title: string, suite: (engine: EngineUnderTest) => void) {
  describe(`${title} [sqlite]`, () => suite(engineUnderTest('sqlite')))
  describeOnPostgres(title, suite)
}

/** A suite on PostgreSQL alone (several replicas sharing one database, say). */
export function describeOnPostgres(title: string, suite: (engine: EngineUnderTest) => void) {
  if (!postgresProblem) {
    describe(`${title} [postgres]`, () => suite(engineUnderTest('postgres')))
  } else if (process.env.CI === 'true') {
    describe(`${title} [postgres]`, () => {
      it('has PostgreSQL to test against (CI must provide it)', () => {
        throw new Error(`PostgreSQL is not reachable at ${redact(postgresUrl)}: ${postgresProblem}`)
      })
    })
  } else {
    describe.skip(`${title} [postgres] (PostgreSQL not reachable)`, () => {
      it('runs on PostgreSQL', () => {})
    })
  }
}

/** Registers its clean-up with the enclosing describe; call it while the suite is collected. */
function engineUnderTest(name: StoreEngine): EngineUnderTest {
  const stores: Store[] = []
  const folders: string[] = []
  const databases: string[] = []
  let own: Promise<StoreLocation> | undefined

  const newLocation = async (): Promise<StoreLocation> => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-store-'))
    folders.push(dataDir)
    if (name === 'sqlite') return { dataDir }
    const database = `countersign_test_${randomBytes(6).toString('hex')}`
    await administer((admin) => admin.query(`CREATE DATABASE ${database}`))
    databases.push(database)
    return { dataDir, databaseUrl: urlOfDatabase(database) }
  }

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()))
    for (const database of databases) {
      await administer((admin) => admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
    }
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
  })

  return {
    name,
    location: () => (own ??= newLocation()),
    newLocation,
    async openStore(location) {
      const store = await openStore(location ?? (await (own ??= newLocation())))
      stores.push(store)
      return store
    },
  }
}

/**
 * A PostgreSQL outage of one test database: it refuses new connections and its open ones are
 * ended (`reachable: false`), or it accepts them again.
 */
export async function setReachable({ databaseUrl }: StoreLocation, reachable: boolean) {
  if (!databaseUrl) throw new Error('only a PostgreSQL database can be made unreachable')
  const database = new URL(databaseUrl).pathname.slice(1)
  await administer(async (admin) => {
    await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS ${reachable}`)
    if (!reachable)
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [database],
      )
  })
}

async function probe(url: string): Promise<string | undefined> {
  try {
    await administer((admin) => admin.query('SELECT 1'), url)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error)
  }
}

async function administer<T>(task: (admin: pg.Client) => Promise<T>, url = postgresUrl) {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  await admin.connect()
  try {
    return await task(admin)
  } finally {
    await admin.end()
  }
}

function urlOfDatabase(database: string): string {
  const url = new URL(postgresUrl)
  url.pathname = `/${database}`
  return url.toString()
}

function redact(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}
