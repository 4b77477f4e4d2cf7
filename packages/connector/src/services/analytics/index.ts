import { inTableOrder } from '../definition.js'
import { ANALYTICS_TABLE } from './table.js'
import * as definitions from './tools.js'

/** The web-analytics service's tools, in the order of the tool table. */
export const ANALYTICS_TOOLS = inTableOrder(ANALYTICS_TABLE, definitions)
