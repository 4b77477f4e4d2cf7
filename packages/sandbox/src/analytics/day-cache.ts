import { generateDay, type DayBlock } from './day.js'
import type { PropertyProfile } from './property.js'

/**
 * Generated days, kept in memory so that a report over days already seen costs only the adding
 * up. Bounded by the number of event cells held, what a day's memory grows with (the figures are
 * in docs/decisions.md, "Sandbox analytics API"): the least recently used days go first. Data is
 * deterministic, so a day generated again is the same day.
 */
const MAX_EVENT_CELLS = 3_000_000

const blocks = new Map<string, DayBlock>()
let held = 0

export function dayBlock(profile: PropertyProfile, day: number): DayBlock {
  const key = `${profile.id}:${day}`
  let block = blocks.get(key)
  if (block) {
    // Map order is insertion order: re-inserting marks it as recently used.
    blocks.delete(key)
    blocks.set(key, block)
    return block
  }
  block = generateDay(profile, day)
  blocks.set(key, block)
  held += block.events.count
  for (const [oldest, old] of blocks) {
    if (held <= MAX_EVENT_CELLS) break
    blocks.delete(oldest)
    held -= old.events.count
  }
  return block
}
