import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { packageOf, summarizeHeapSnapshot } from '../../bench/heap-snapshot.js'
import { heapSnapshotFlags, takeHeapSnapshot } from '../../bench/idle-heap.js'
import { freePort, startProcess, stopProcess } from '@countersign/connector/testing'

/**
 * The bench's idle heap by holder (`npm run bench`, `heap_idle_mb_by_holder`), read off a real
 * process's snapshot: a module that keeps a cache in its scope is charged for what the cache holds,
 * and the module that only imports it is not.
 */
const folder = mkdtempSync(join(tmpdir(), 'countersign-heap-'))
const children: ChildProcess[] = []
afterAll(async () => {
  await Promise.all(children.map(stopProcess))
  rmSync(folder, { recursive: true, force: true })
})

describe('the idle heap by what holds it', () => {
  it('charges a module for what its scope keeps, and not the module that imports it', async () => {
    // About 4 MB in a Map in cache.mjs's scope: 40,000 entries, each a distinct 64-character string.
    writeFileSync(
      join(folder, 'cache.mjs'),
      `const cache = new Map()
for (let i = 0; i < 40000; i++) cache.set(i, String(i).padStart(64, '#'))
export const size = () => cache.size`,
    )
    writeFileSync(
      join(folder, 'main.mjs'),
      `import { createServer } from 'node:http'
import { size } from './cache.mjs'
createServer((req, res) => res.end(String(size()))).listen(Number(process.env.PORT), '127.0.0.1')`,
    )
    const port = await freePort()
    const snapshots = join(folder, 'snapshots')
    const started = await startProcess(
      children,
      [join(folder, 'main.mjs')],
      port,
      { PORT: String(port) },
      { nodeFlags: heapSnapshotFlags(snapshots) },
    )
    const file = await takeHeapSnapshot(started.pid, started.url, snapshots)

    const { totalBytes, byHolder } = summarizeHeapSnapshot(file, (url) => basename(url))
    const held = (name: string) => byHolder.find(({ holder }) => holder === name)?.bytes ?? 0
    expect(held('cache.mjs')).toBeGreaterThan(3.5 * 1024 * 1024)
    expect(held('main.mjs')).toBeLessThan(0.5 * 1024 * 1024)
    expect(byHolder.reduce((sum, { bytes }) => sum + bytes, 0)).toBe(totalBytes)
  })

  it('names a module by its package or by the project folder it is in', () => {
    expect(packageOf('file:///app/node_modules/@hono/node-server/dist/index.mjs')).toBe(
      '@hono/node-server',
    )
    expect(packageOf('/app/node_modules/a/node_modules/oidc-provider/lib/index.js')).toBe(
      'oidc-provider',
    )
    expect(packageOf('file:///app/packages/connector/dist/mcp/endpoint.js')).toBe('connector/mcp')
    expect(packageOf('file:///app/packages/connector/bin/countersign.js')).toBe('connector')
    expect(packageOf('file:///app/packages/environment/dist/index.js')).toBe('environment')
    expect(packageOf('node:internal/modules/esm/loader')).toBe('node')
  })
})
