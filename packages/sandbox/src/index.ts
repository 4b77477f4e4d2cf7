/**
 * The sandbox provider: a local emulator of the upstream provider (docs/sandbox.md) that the
 * connector talks to only over HTTP. `npm run sandbox` runs it (cli/main.ts); a test or the
 * development launcher starts one in its own process with `startSandbox` or `runSandbox`.
 */
export { startSandbox, type RunningSandbox, type SandboxOptions } from './server/start.js'
export { runSandbox } from './cli/run.js'
