import { z } from 'zod'
import type { DialectName } from './dialect.js'

// The control API calls the generic dialect `seed`, its first name: scripts and tests read it.
const ON_THE_WIRE = { generic: 'seed', google: 'google' } as const satisfies Record<
  DialectName,
  string
>

/** A dialect's name as the control API writes it (its request log, its faults). */
export const wireDialect = (name: DialectName) => ON_THE_WIRE[name]

/** A dialect's name as the control API reads it: as it writes it, or as the code names it. */
export const dialectFromWire = z
  .enum(['seed', 'generic', 'google'])
  .transform((name): DialectName => (name === ON_THE_WIRE.generic ? 'generic' : name))
