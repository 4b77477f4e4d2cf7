import { afterEach, beforeEach, vi } from 'vitest'

/**
 * Date held still in each test of the file (performance.now() and timers run as ever), so that a
 * test moves the clock the breaker reads (its pause, the evidence's window) with `later(ms)`
 * rather than waiting for it.
 */
export function heldDate(): { later: (ms: number) => void } {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }))
  afterEach(() => vi.useRealTimers())
  return { later: (ms) => vi.setSystemTime(Date.now() + ms) }
}
