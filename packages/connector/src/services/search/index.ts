import { inTableOrder } from '../definition.js'
import { SEARCH_TABLE } from './table.js'
import * as definitions from './tools.js'

/** The search-performance service's tools, in the order of the tool table. */
export const SEARCH_TOOLS = inTableOrder(SEARCH_TABLE, definitions)
