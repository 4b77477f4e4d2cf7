import { closeOnSignal, connectorEnvironment, runConnector } from '@countersign/connector'
import { runSandbox } from '@countersign/sandbox'

/**
 * `npm start`, the development launcher: the one place where the two programs meet. It runs the
 * sandbox provider (unless SANDBOX=0, or UPSTREAM_* name a real provider) and then the connector
 * pointed at it, each in this process as its own package; they still talk only over HTTP. In
 * production the connector runs alone (`countersign start`) and loads no sandbox module.
 */
/** A program that cannot start says why in one line (a port taken names its variable). */
const stop = (error: unknown): never => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}

const env = connectorEnvironment()
const sandbox = env.startSandbox ? await runSandbox().catch(stop) : undefined
const connector = await runConnector(
  env,
  sandbox && {
    url: sandbox.url,
    googleUrl: sandbox.googleUrl,
    scopePrefix: sandbox.state.config.scopePrefix,
  },
).catch(async (error: unknown) => {
  await sandbox?.close()
  return stop(error)
})

// The connector drains its calls in flight first; the sandbox, its provider, closes after it.
closeOnSignal(async () => {
  await connector.close()
  await sandbox?.close()
})
