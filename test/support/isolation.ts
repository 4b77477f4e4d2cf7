import { afterAll, vi } from 'vitest'

/**
 * Run before every test file (vitest.config.ts setupFiles). Files share their worker's process
 * (isolate: false), so what one file leaves on the process's globals is undone when it ends:
 * fake clocks, spies and stubs.
 */
afterAll(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})
