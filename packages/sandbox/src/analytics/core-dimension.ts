import type { DayBlock } from './day.js'
import type { Dimension } from './fields.js'

/** A dimension of core reports (runReport): read from the cells of a property's synthetic day. */
export type CoreDimension = Dimension<DayBlock>
