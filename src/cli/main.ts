import { join } from 'node:path'
import { sandboxUpstream } from '../connector/config.js'
import { connectorEnvironment, sandboxUrlOf } from '../connector/env.js'
import { startConnector, type RunningConnector } from '../connector/server.js'
import { startSandbox, type RunningSandbox } from '../sandbox/server.js'
import { SERVICE_NAMES } from '../services/catalog.js'
import { dataDirFromEnv, hostFromEnv, portFromEnv } from './env.js'

const USAGE = `usage: countersign <command>

commands:
  start     run everything: the sandbox provider (unless SANDBOX=0 or UPSTREAM_* are set) and
            the connector on PORT (default 8080)
  sandbox   run the sandbox provider alone on SANDBOX_PORT (default 8081)
`

async function runSandbox(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: portFromEnv('SANDBOX_PORT', 8081),
    host: hostFromEnv(),
    dataDir: join(dataDirFromEnv(), 'sandbox'),
    publicUrl: process.env.SANDBOX_PUBLIC_URL || undefined,
    scopePrefix: process.env.SANDBOX_SCOPE_PREFIX || undefined,
  })
  console.log(`sandbox provider: ${sandbox.url}`)
  console.log(`  task API:      ${sandbox.url}/tasks/v1`)
  console.log(`  web view:      ${sandbox.url}/web/tasks`)
  console.log(`  connections:   ${sandbox.url}/account/connections`)
  return sandbox
}

/** The connector, against the real provider if UPSTREAM_* say so, else the sandbox. */
async function runEverything(): Promise<{ connector: RunningConnector; sandbox?: RunningSandbox }> {
  const env = connectorEnvironment()
  const sandbox = env.startSandbox ? await runSandbox() : undefined
  const upstream = env.upstream ?? sandboxUpstream(sandbox?.url ?? sandboxUrlOf())
  if (!env.upstream && !sandbox)
    console.log(`using the sandbox provider at ${sandboxUrlOf()} (SANDBOX=0)`)
  try {
    const connector = await startConnector({ ...env.config, upstream })
    console.log(`connector: ${connector.url}`)
    for (const service of SERVICE_NAMES) {
      console.log(`  ${`${service} MCP:`.padEnd(15)}${connector.url}/${service}/mcp`)
    }
    return { connector, sandbox }
  } catch (error) {
    await sandbox?.close()
    throw error
  }
}

function closeOnSignal(close: () => Promise<void>) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0))
    })
  }
}

async function main(command: string | undefined) {
  switch (command) {
    case 'start': {
      const { connector, sandbox } = await runEverything()
      closeOnSignal(async () => {
        await connector.close()
        await sandbox?.close()
      })
      return
    }
    case 'sandbox': {
      const sandbox = await runSandbox()
      closeOnSignal(() => sandbox.close())
      return
    }
    default:
      process.stderr.write(USAGE)
      process.exitCode = command ? 2 : 0
  }
}

main(process.argv[2]).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
