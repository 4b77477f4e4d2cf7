import type { ChildProcess } from 'node:child_process'
import { COMPILED, freePort, startProcess } from '@countersign/connector/testing'

/**
 * The compiled sandbox in a child process, as `npm run sandbox` runs it, on two free ports (its
 * generic dialect and its Google one), its data in `dataDir`: where the benches' replicas go.
 */
export async function startCompiledSandbox(
  children: ChildProcess[],
  dataDir: string,
): Promise<{ url: string; googleUrl: string }> {
  const [port, googlePort] = [await freePort(), await freePort()]
  const sandbox = await startProcess(children, COMPILED.sandbox, port, {
    SANDBOX_PORT: String(port),
    SANDBOX_GOOGLE_PORT: String(googlePort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  })
  return { url: sandbox.url, googleUrl: `http://127.0.0.1:${googlePort}` }
}
