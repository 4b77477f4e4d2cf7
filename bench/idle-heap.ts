import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { summarizeHeapSnapshot } from './heap-snapshot.js'
import { emit } from './stats.js'

/** How many holders the bench names; the rest are summed as `(others)`. */
const NAMED = 12

/**
 * The Node flags that let the bench ask a process for a heap snapshot (SIGUSR2), written into
 * `folder` rather than the process's working directory.
 */
export function heapSnapshotFlags(folder: string): string[] {
  mkdirSync(folder, { recursive: true })
  return ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${folder}`]
}

/**
 * Asks the process `pid` (started with `heapSnapshotFlags(folder)`) for a heap snapshot, and
 * resolves with its file once whole: V8 writes it on the main thread, so `url`/healthz answering
 * after the file appeared means the writing is over.
 */
export async function takeHeapSnapshot(pid: number, url: string, folder: string): Promise<string> {
  process.kill(pid, 'SIGUSR2')
  for (let waited = 0; waited < 120_000; waited += 200) {
    await sleep(200)
    const written = readdirSync(folder).find((name) => name.endsWith('.heapsnapshot'))
    const answered = (res: Response) => res.ok
    if (written && (await fetch(`${url}/healthz`).then(answered, () => false)))
      return join(folder, written)
  }
  throw new Error(`no heap snapshot from process ${pid} in ${folder}`)
}

/**
 * The heap of the process `pid` (started with `heapSnapshotFlags(folder)`) by what holds it:
 * `heap_idle_mb` (what the live objects take, beside `rss_mb_idle`, the whole process) and one
 * `heap_idle_mb_by_holder` a holder.
 */
export async function emitIdleHeap(
  pid: number,
  url: string,
  folder: string,
  suffix = '',
): Promise<void> {
  const file = await takeHeapSnapshot(pid, url, folder)
  try {
    const { totalBytes, byHolder } = summarizeHeapSnapshot(file)
    const mb = (bytes: number) => bytes / 1024 / 1024
    emit(`heap_idle_mb${suffix}`, mb(totalBytes), 'MB')
    for (const { holder, bytes } of byHolder.slice(0, NAMED))
      emit(`heap_idle_mb_by_holder${suffix}`, mb(bytes), 'MB', { holder })
    const others = byHolder.slice(NAMED).reduce((sum, { bytes }) => sum + bytes, 0)
    emit(`heap_idle_mb_by_holder${suffix}`, mb(others), 'MB', { holder: '(others)' })
  } finally {
    rmSync(file, { force: true })
  }
}
