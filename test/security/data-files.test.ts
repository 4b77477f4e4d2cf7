import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadOrCreateKeyFile, openStore } from '@countersign/connector/testing'
import { startSandbox } from '@countersign/sandbox'

/**
 * Data files readable by other users: on a shared machine, anyone could copy the connector's
 * database (who connected what, sealed credentials), the sandbox's, or their -wal and -shm, which
 * hold recent writes. Both programs keep their folders 0700 and their database files 0600, under
 * the most permissive umask, and tighten what an earlier version left wider. As `npm start` does,
 * the sandbox starts first, in DATA_DIR/sandbox, then the connector's store and key file.
 */

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

let umask: number
let root: string
beforeEach(async () => {
  umask = process.umask(0o000)
  root = await mkdtemp(join(tmpdir(), 'countersign-modes-'))
})
afterEach(async () => {
  process.umask(umask)
  await rm(root, { recursive: true, force: true })
})

/** Starts both programs on `dataDir` and reports the mode of every file and folder there. */
async function modesAfterStart(dataDir: string): Promise<Record<string, string>> {
  const sandbox = await startSandbox({ port: 0, dataDir: join(dataDir, 'sandbox') })
  const store = await openStore({ dataDir })
  try {
    loadOrCreateKeyFile(dataDir)
    const modes: Record<string, string> = {}
    for (const path of [
      '',
      'connector.db',
      'connector.db-wal',
      'connector.db-shm',
      'vault.key',
      'sandbox',
      'sandbox/sandbox.db',
      'sandbox/sandbox.db-wal',
      'sandbox/sandbox.db-shm',
    ]) {
      modes[path || 'DATA_DIR'] = modeOf(join(dataDir, path))
    }
    return modes
  } finally {
    await store.close()
    await sandbox.close()
  }
}

const OWNER_ONLY = {
  DATA_DIR: '700',
  'connector.db': '600',
  'connector.db-wal': '600',
  'connector.db-shm': '600',
  'vault.key': '600',
  sandbox: '700',
  'sandbox/sandbox.db': '600',
  'sandbox/sandbox.db-wal': '600',
  'sandbox/sandbox.db-shm': '600',
}

describe('data files readable by other users', () => {
  it('both programs create their folders 0700 and their database files, -wal and -shm 0600, whatever the umask', async () => {
    expect(await modesAfterStart(join(root, 'data'))).toEqual(OWNER_ONLY)
  })

  it('a folder or database file left readable by others is tightened', async () => {
    const dataDir = join(root, 'data')
    mkdirSync(join(dataDir, 'sandbox'), { recursive: true, mode: 0o755 })
    chmodSync(dataDir, 0o755)
    for (const file of ['connector.db', 'connector.db-wal', 'sandbox/sandbox.db']) {
      writeFileSync(join(dataDir, file), '', { mode: 0o644 })
    }
    expect(await modesAfterStart(dataDir)).toEqual(OWNER_ONLY)
  })
})
