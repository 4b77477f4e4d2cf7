import { toolTable } from '../table.js'

/** The tool table for the task service, in its order, with scopes and access modes. */
// prettier-ignore
export const TASK_TABLE = toolTable('tasks', {
  // tool            method and path                               scope             user approval  access mode
  create_task:      ['POST /lists/{tasklist}/tasks',               'tasks',          'each time',   'auth-token'],
  create_task_list: ['POST /lists',                                'tasks',          'each time',   'auth-token'],
  delete_task:      ['DELETE /lists/{tasklist}/tasks/{task}',      'tasks',          'each time',   'per-call'],
  get_task:         ['GET /lists/{tasklist}/tasks/{task}',         'tasks.readonly', 'none (read)'],
  list_task_lists:  ['GET /lists',                                 'tasks.readonly', 'none (read)'],
  list_tasks:       ['GET /lists/{tasklist}/tasks',                'tasks.readonly', 'none (read)'],
  move_task:        ['POST /lists/{tasklist}/tasks/{task}/move',   'tasks',          'each time',   'auth-token'],
  update_task:      ['PATCH /lists/{tasklist}/tasks/{task}',       'tasks',          'each time',   'auth-token'],
})
