import { Hono } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { showAssets } from './assets-page.js'
import { showSurfaceItem, unassignSurfaceItem } from './surfaces.js'
import { completeTask, showTask, showTasks } from './task-pages.js'

/**
 * The web view, mounted at `/web`: the targets of webViewLink and linkToTask, and the person's
 * sites and analytics properties. It reads, and does the two things the task API cannot: the
 * Done button completes a task as first-party clients do, and a document or chat space can
 * unassign its task.
 */
export function webRoutes() {
  const web = new Hono<SandboxEnv>()
  web.get('/tasks', showTasks)
  web.get('/tasks/:task', showTask)
  web.post('/tasks/:task/complete', completeTask)
  web.get('/surfaces/:id', showSurfaceItem)
  web.post('/surfaces/:id/unassign', unassignSurfaceItem)
  web.get('/sites', showAssets)
  return web
}
