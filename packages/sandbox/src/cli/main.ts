import { runSandbox } from './run.js'

/** `npm run sandbox`: the sandbox provider alone, until SIGINT or SIGTERM. */
runSandbox().then(
  (sandbox) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => void sandbox.close().then(() => process.exit(0)))
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
