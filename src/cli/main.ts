import { join } from 'node:path'
import { startSandbox, type RunningSandbox } from '../sandbox/server.js'
import { dataDirFromEnv, hostFromEnv, portFromEnv } from './env.js'

const USAGE = `usage: countersign <command>

commands:
  start     run everything: the sandbox provider (and, once built, the connector)
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

function closeOnSignal(close: () => Promise<void>) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0))
    })
  }
}

async function main(command: string | undefined) {
  switch (command) {
    case 'start':
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
