import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * docs/architecture.md, "Two programs, two packages": the connector and the sandbox are two
 * programs that talk only over HTTP. Every module a production start of the connector (`countersign
 * start`, packages/connector/src/cli/ main.ts) can load is found by following its imports, static
 * and dynamic, from that entry: none is the sandbox's. (The lint rule in eslint.config.js refuses
 * such an import where it is written; this checks what is reachable, whatever the path;
 * compiled.test.ts checks what the compiled program's process does load.)
 */

const ROOT = resolve(import.meta.dirname, '../../../..')
const ENTRY = join(ROOT, 'packages/connector/src/cli/main.ts')
const SANDBOX = join(ROOT, 'packages/sandbox')

/** The file a relative specifier names, as tsx resolves it (`./x.js` is `./x.ts`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]
  return candidates.find((file) => existsSync(file) && !file.endsWith('/'))
}

/** Every module reachable from `entry`, and the bare specifiers (packages) met on the way. */
function reachable(entry: string) {
  const files = new Set<string>()
  const packages = new Set<string>()
  const queue = [entry]
  while (queue.length) {
    const file = queue.pop()!
    if (files.has(file)) continue
    files.add(file)
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier)
        continue
      }
      const target = resolveRelative(file, specifier)
      if (!target) throw new Error(`${relative(ROOT, file)} imports ${specifier}: not found`)
      queue.push(target)
    }
  }
  return { files, packages }
}

describe('the package boundary', () => {
  const { files, packages } = reachable(ENTRY)

  it('a production start of the connector can load no module of the sandbox', () => {
    expect(files.size).toBeGreaterThan(100)
    const intoSandbox = [...files].filter((file) => file.startsWith(SANDBOX))
    expect(intoSandbox.map((file) => relative(ROOT, file))).toEqual([])
    // Of the repository's packages, only the two the sandbox uses too: SQLite's, and what both
    // need of the machine they run on (their variables, owner-only files, early answers).
    const shared = ['@countersign/sqlite', '@countersign/environment']
    const ours = [...packages].filter((name) => name.startsWith('@countersign/'))
    expect(ours.filter((name) => !shared.includes(name))).toEqual([])
  })

  it('reaches the whole connector: the walk does follow its imports', () => {
    const connector = ['connector/server.ts', 'mcp/endpoint.ts', 'upstream/api/client.ts']
    for (const part of connector)
      expect(files).toContain(join(ROOT, 'packages/connector/src', part))
    expect(packages).toContain('oidc-provider')
  })
})
