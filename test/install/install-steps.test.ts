import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * npm 12 runs a dependency's install step only where package.json's allowScripts allows it, and
 * `.npmrc`'s strict-allow-scripts fails an install on any step it does not name
 * (docs/operations.md, "Node.js versions"). These hold the list to the lockfile: every package
 * with an install step is decided, and only SQLite's driver for Node 20 may run one.
 */
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
const manifest = read('package.json') as { allowScripts?: Record<string, boolean> }
const lock = read('package-lock.json') as {
  packages: Record<string, { hasInstallScript?: boolean; name?: string }>
}

/** The packages of the lockfile that have an install step, by name. */
function withInstallSteps(): string[] {
  const names = Object.entries(lock.packages)
    .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript)
    .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 13))
  return [...new Set(names)].sort()
}

describe('install steps', () => {
  it('every dependency with an install step is allowed or denied by name, and only better-sqlite3 is allowed', () => {
    const policy = manifest.allowScripts ?? {}
    expect(Object.keys(policy).sort()).toEqual(withInstallSteps())
    expect(Object.entries(policy).filter(([, allowed]) => allowed)).toEqual([
      ['better-sqlite3', true],
    ])
  })

  it('an install fails on an install step nobody decided', () => {
    const npmrc = readFileSync('.npmrc', 'utf8')
    expect(npmrc).toMatch(/^strict-allow-scripts=true$/m)
  })

  it('npm itself finds no undecided install step in the installed tree', (context) => {
    // `npm install-scripts` came with npm 11.18; the machine's npm and CI's npm 12 have it.
    const [major = 0, minor = 0] = execFileSync('npm', ['--version'], { encoding: 'utf8' })
      .split('.')
      .map(Number)
    if (major < 11 || (major === 11 && minor < 18)) {
      context.skip(`npm ${major}.${minor} has no \`npm install-scripts\``)
    }
    const listed = execFileSync('npm', ['install-scripts', 'ls', '--json'], { encoding: 'utf8' })
    expect(JSON.parse(listed)).toEqual({ allowScripts: [] })
  })
})
