import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { openStore } from '../../src/store/open.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import { SealedValueError } from '../../src/vault/errors.js'
import { Vault } from '../../src/vault/vault.js'
import { FROM_SOURCES } from '../support/processes.js'

/**
 * `countersign rotate-keys`, run as an operator runs it (`npm run rotate-keys`), from its sources,
 * in a child process, on a data folder of its own.
 */

const run = promisify(execFile)
const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

const newKey = () => randomBytes(32).toString('base64')

/** A data folder whose SQLite store holds credentials sealed under `keys` (one each). */
async function dataDirWith(keys: string[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-rotate-'))
  folders.push(dataDir)
  const store = await openStore({ dataDir })
  try {
    for (const [index, key] of keys.entries()) {
      const { vault } = Vault.fromEnvironment({ vaultKey: key, dataDir })
      await new UpstreamCredentials(store, vault).put({
        id: `credential-${index}`,
        subject: `person-${index}`,
        scope: 'tasks',
        secret: `upstream-token-${index}`,
      })
    }
  } finally {
    await store.close()
  }
  return dataDir
}

async function rotateKeys(env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['VAULT_KEY', 'DATABASE_URL', 'DATA_DIR'].includes(name),
    ),
  )
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...FROM_SOURCES, 'packages/connector/src/cli/main.ts', 'rotate-keys'],
      {
        env: { ...clean, ...env },
      },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

async function secretsUnder(dataDir: string, vaultKey: string) {
  const store = await openStore({ dataDir })
  try {
    const { vault } = Vault.fromEnvironment({ vaultKey, dataDir })
    const credentials = new UpstreamCredentials(store, vault)
    const ids = await store.db
      .selectFrom('upstream_credentials')
      .select('id')
      .orderBy('id')
      .execute()
    return await Promise.all(
      ids.map(({ id }) =>
        credentials.get(id).then(
          (credential) => credential?.secret,
          (error: unknown) => (error instanceof SealedValueError ? 'sealed elsewhere' : error),
        ),
      ),
    )
  } finally {
    await store.close()
  }
}

// Each test starts its own processes on its own folder: they run side by side.
describe.concurrent('countersign rotate-keys', () => {
  it('re-seals every credential under the first key of VAULT_KEY and prints the report', async () => {
    const [oldKey, nextKey] = [newKey(), newKey()]
    const dataDir = await dataDirWith([oldKey, oldKey, nextKey])
    const { code, stdout } = await rotateKeys({
      DATA_DIR: dataDir,
      VAULT_KEY: `${nextKey},${oldKey}`,
    })
    expect(code).toBe(0)
    expect(stdout).toContain('resealed: 2\nfailed: 0\nremaining: 0\n')
    expect(stdout).toContain('Remove the old keys')
    expect(await secretsUnder(dataDir, nextKey)).toEqual([
      'upstream-token-0',
      'upstream-token-1',
      'upstream-token-2',
    ])
  }, 30_000)

  it('names, by id only, what does not open with the keys given, and exits 1', async () => {
    const [lostKey, oldKey, nextKey] = [newKey(), newKey(), newKey()]
    const dataDir = await dataDirWith([oldKey, lostKey])
    const { code, stdout } = await rotateKeys({
      DATA_DIR: dataDir,
      VAULT_KEY: `${nextKey},${oldKey}`,
    })
    expect(code).toBe(1)
    expect(stdout).toContain('resealed: 1\nfailed: 1\n  credential-1 (under key ')
    expect(stdout).toContain('remaining: 1\n')
    expect(stdout).toContain('keep those keys')
    expect(stdout).not.toContain('upstream-token')
    expect(await secretsUnder(dataDir, nextKey)).toEqual(['upstream-token-0', 'sealed elsewhere'])
  }, 30_000)

  it('uses the key file in DATA_DIR when VAULT_KEY is not set, and refuses to make one up', async () => {
    const [oldKey, nextKey] = [newKey(), newKey()]
    const dataDir = await dataDirWith([oldKey])
    const refused = await rotateKeys({ DATA_DIR: dataDir })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/no keys to rotate with/)

    await writeFile(join(dataDir, 'vault.key'), `${nextKey},${oldKey}\n`, { mode: 0o600 })
    const { code, stdout } = await rotateKeys({ DATA_DIR: dataDir })
    expect(code).toBe(0)
    expect(stdout).toContain('resealed: 1\n')
    expect(await secretsUnder(dataDir, nextKey)).toEqual(['upstream-token-0'])
  }, 30_000)
})
