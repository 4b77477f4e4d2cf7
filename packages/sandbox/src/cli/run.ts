import { join } from 'node:path'
import { startSandbox, type RunningSandbox } from '../server/start.js'
import { dataDirFromEnv, portFromEnv } from './env.js'

/**
 * The sandbox provider as `npm run sandbox` (and the development launcher, `npm start`) runs it:
 * its settings from the environment (docs/operations.md, "The sandbox"), its data under
 * DATA_DIR/sandbox, and its addresses printed.
 */
export async function runSandbox(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: portFromEnv('SANDBOX_PORT', 8081),
    googlePort: portFromEnv('SANDBOX_GOOGLE_PORT', 8082),
    // A development provider with an unauthenticated control API: loopback unless told otherwise.
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    dataDir: join(dataDirFromEnv(), 'sandbox'),
    publicUrl: process.env.SANDBOX_PUBLIC_URL || undefined,
    googlePublicUrl: process.env.SANDBOX_GOOGLE_PUBLIC_URL || undefined,
    scopePrefix: process.env.SANDBOX_SCOPE_PREFIX || undefined,
  })
  console.log(`sandbox provider: ${sandbox.url}`)
  console.log(`  task API:      ${sandbox.url}/tasks/v1`)
  console.log(`  web view:      ${sandbox.url}/web/tasks`)
  console.log(`  connections:   ${sandbox.url}/account/connections`)
  console.log(`  Google APIs:   ${sandbox.googleUrl} (Google's paths and OAuth, same data)`)
  return sandbox
}
