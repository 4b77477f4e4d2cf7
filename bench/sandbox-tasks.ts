import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '@countersign/sandbox'
import { RowCounter, seedTasks } from '@countersign/sandbox/testing'
import { providerApi, providerToken } from './provider.js'
import { liftSandboxQuotas } from './sandbox-quotas.js'
import { emit, p50, timed } from './stats.js'

const SAMPLES = 300
const WARMUP = 30

/**
 * The sandbox's task service: paging cost against list size, rows written by a move, and the
 * p50 of the common calls. A real file-backed store, requests over loopback HTTP.
 */
export async function benchSandboxTasks(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-'))
  const rows = new RowCounter()
  const sandbox = await startSandbox({ port: 0, dataDir, plugins: [rows] })
  try {
    await liftSandboxQuotas(sandbox.url)
    const api = providerApi(sandbox.url, await providerToken(sandbox.url, 'bench'))
    const small = (await api('POST', '/tasks/v1/lists', { title: '100 tasks' })).id as string
    const large = (await api('POST', '/tasks/v1/lists', { title: '20,000 tasks' })).id as string
    await seedTasks(sandbox.db, { user: 'bench', tasklist: small, count: 100 })
    const largeIds = await seedTasks(sandbox.db, { user: 'bench', tasklist: large, count: 20_000 })

    // A page from the middle of the large list: the walk resumes 10,000 tasks in.
    let token: string | undefined
    for (let i = 0; i < 100; i++) {
      token = (
        await api(
          'GET',
          `/tasks/v1/lists/${large}/tasks?maxResults=100${token ? `&pageToken=${token}` : ''}`,
        )
      ).nextPageToken as string
    }
    const smallPage = `/tasks/v1/lists/${small}/tasks?maxResults=100`
    const largePage = `/tasks/v1/lists/${large}/tasks?maxResults=100&pageToken=${token}`
    // Side by side: alternate the two so drift of the machine hits both alike.
    const smallTimes: number[] = []
    const largeTimes: number[] = []
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const s = await timed(() => api('GET', smallPage))
      const l = await timed(() => api('GET', largePage))
      if (i < WARMUP) continue
      smallTimes.push(s)
      largeTimes.push(l)
    }
    emit('list_page_ratio_20000_vs_100', p50(largeTimes) / p50(smallTimes), 'ratio')
    emit('sandbox_page_100_p50_ms', p50(smallTimes), 'ms')
    emit('sandbox_page_100_of_20000_p50_ms', p50(largeTimes), 'ms')

    // One move in the 20,000-task list: to right after a task near the end.
    rows.reset()
    await api(
      'POST',
      `/tasks/v1/lists/${large}/tasks/${largeIds[10]}/move?previous=${largeIds[19_990]}`,
    )
    emit('move_rows_written', rows.written, 'rows')

    const moves: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const task = largeIds[(i * 7919) % largeIds.length]!
      const previous = largeIds[(i * 104_729 + 1) % largeIds.length]!
      if (task === previous) continue
      moves.push(
        await timed(() =>
          api('POST', `/tasks/v1/lists/${large}/tasks/${task}/move?previous=${previous}`),
        ),
      )
    }
    emit('sandbox_move_p50_ms', p50(moves), 'ms')

    const creates: number[] = []
    const created: string[] = []
    for (let i = 0; i < SAMPLES; i++) {
      creates.push(
        await timed(async () => {
          created.push(
            (await api('POST', `/tasks/v1/lists/${small}/tasks`, { title: `New ${i}`, notes: 'n' }))
              .id as string,
          )
        }),
      )
    }
    emit('sandbox_create_p50_ms', p50(creates), 'ms')

    const patches: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const task = created[i % created.length]!
      patches.push(
        await timed(() =>
          api('PATCH', `/tasks/v1/lists/${small}/tasks/${task}`, { title: `Renamed ${i}` }),
        ),
      )
    }
    emit('sandbox_patch_p50_ms', p50(patches), 'ms')
  } finally {
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
