import { Hono } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { showAssets } from './assets-page.js'
import { showSurfaceItem } from './surfaces.js'
import { showTask, showTasks } from './task-pages.js'

/**
 * The read-only web view, mounted at `/web`: the targets of webViewLink and linkToTask, and
 * the person's sites and analytics properties.
 */
export function webRoutes() {
  const web = new Hono<SandboxEnv>()
  web.get('/tasks', showTasks)
  web.get('/tasks/:task', showTask)
  web.get('/surfaces/:id', showSurfaceItem)
  web.get('/sites', showAssets)
  return web
}
