import { join } from 'node:path'
import { startSandbox, type RunningSandbox } from '../server/start.js'
import { sandboxEnvironment } from './env.js'

/**
 * The sandbox provider as `npm run sandbox` (and the development launcher, `npm start`) runs it:
 * its settings from the environment (docs/operations.md, "The sandbox"), its data under
 * DATA_DIR/sandbox, and its addresses printed.
 */
export async function runSandbox(): Promise<RunningSandbox> {
  const env = sandboxEnvironment()
  const sandbox = await startSandbox({ ...env, dataDir: join(env.dataDir, 'sandbox') })
  console.log(`sandbox provider: ${sandbox.url}`)
  console.log(`  task API:      ${sandbox.url}/tasks/v1`)
  console.log(`  web view:      ${sandbox.url}/web/tasks`)
  console.log(`  connections:   ${sandbox.url}/account/connections`)
  console.log(`  Google APIs:   ${sandbox.googleUrl} (Google's paths and OAuth, same data)`)
  return sandbox
}
