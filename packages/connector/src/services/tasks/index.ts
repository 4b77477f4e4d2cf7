import { inTableOrder } from '../definition.js'
import { TASK_TABLE } from './table.js'
import * as definitions from './tools.js'

/** The task service's tools, in the order of the tool table. */
export const TASK_TOOLS = inTableOrder(TASK_TABLE, definitions)
