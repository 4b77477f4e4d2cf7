import type { ToolDefinition } from '../definition.js'
import {
  createTask,
  createTaskList,
  deleteTask,
  getTask,
  listTaskLists,
  listTasks,
  moveTask,
  updateTask,
} from './tools.js'

/** The task service's tools, in the seed's table order. */
export const TASK_TOOLS: readonly ToolDefinition[] = [
  createTask,
  createTaskList,
  deleteTask,
  getTask,
  listTaskLists,
  listTasks,
  moveTask,
  updateTask,
]
