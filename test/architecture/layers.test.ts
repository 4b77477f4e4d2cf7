import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Each program's folders stack (docs/architecture.md, "The connector's parts" and "The sandbox's
 * parts"): `packages/{connector,sandbox}/layers.json` lists the folders of `src/` lowest first, and
 * a folder imports only folders of lower layers. eslint.config.js refuses an import back up where
 * it is written; this reads every import of both `src/` trees, static and dynamic, and also fails
 * on a folder or a file of `src/` the declaration does not name.
 *
 * Nor do files import each other in a circle, type-only imports included: a circle
 * of types is still one a reader must hold in their head. ESLint's `import-x/no-cycle` refuses a
 * circle of runtime imports where it is written; this also counts the type-only ones.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const PROGRAMS = ['connector', 'sandbox'] as const

interface Declaration {
  /** Lowest first; the folders of one layer never import each other. */
  layers: string[][]
  /** src/'s own files: they may import any folder, and no folder imports them. */
  entries: string[]
}

/** One relative import: the file that writes it, what it writes, and the `src/` path it names. */
interface Import {
  file: string
  specifier: string
  target: string
}

function declarationOf(program: string): Declaration {
  return JSON.parse(readFileSync(join(ROOT, 'packages', program, 'layers.json'), 'utf8'))
}

/** Every relative import of the TypeScript files under `src`, as paths relative to `src`. */
function importsOf(src: string): Import[] {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  )
  return files.flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(src, file), 'utf8'), true, true)
    return importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({
        file: file.split(sep).join('/'),
        specifier,
        target: relative(src, resolve(src, dirname(file), specifier))
          .split(sep)
          .join('/'),
      }))
  })
}

/** The part of `src` a path is in: its first folder, or the file itself at the top. */
const partOf = (path: string) => {
  const [first, ...rest] = path.split('/')
  return rest.length > 0 ? `${first}/` : first!
}

/** What breaks the declaration: undeclared parts, parts it names that are gone, imports up. */
function layerViolations(
  declaration: Declaration,
  parts: { folders: string[]; files: string[] },
  imports: Import[],
): string[] {
  const layerOf = new Map<string, number>()
  const problems: string[] = []
  declaration.layers.forEach((layer, index) =>
    layer.forEach((folder) => {
      if (layerOf.has(`${folder}/`)) problems.push(`${folder}/ is declared twice`)
      layerOf.set(`${folder}/`, index)
    }),
  )
  for (const folder of parts.folders) {
    if (!layerOf.has(`${folder}/`)) problems.push(`${folder}/ is in no layer: declare it`)
  }
  for (const file of parts.files) {
    if (!declaration.entries.includes(file)) problems.push(`${file} is not a declared entry`)
  }
  for (const folder of layerOf.keys()) {
    if (!parts.folders.includes(folder.slice(0, -1))) problems.push(`${folder} is gone`)
  }
  for (const { file, specifier, target } of imports) {
    const from = partOf(file)
    const to = partOf(target)
    if (from === to || target.startsWith('..') || !from.endsWith('/')) continue
    const fromLayer = layerOf.get(from)
    const toLayer = layerOf.get(to)
    if (fromLayer === undefined) continue
    if (toLayer === undefined) {
      problems.push(`${file} imports '${specifier}': ${to} is an entry, above every folder`)
    } else if (toLayer >= fromLayer) {
      const where = toLayer === fromLayer ? 'in the same layer as' : 'above'
      problems.push(`${file} imports '${specifier}': ${to} is ${where} ${from}`)
    }
  }
  return problems
}

/**
 * The files that import each other in a circle, one line for each circle: the strongly connected
 * components of the import graph (Tarjan's algorithm), a file that imports itself included.
 */
function fileCircles(imports: Import[]): string[] {
  const edges = new Map<string, string[]>()
  for (const { file, target } of imports) {
    // Imports name the compiled `.js`; the graph is of the `.ts` files that write them.
    const to = target.replace(/\.js$/, '.ts')
    edges.set(file, [...(edges.get(file) ?? []), to])
  }
  const order = new Map<string, number>()
  const lowest = new Map<string, number>()
  const open: string[] = []
  const circles: string[] = []
  const visit = (file: string) => {
    order.set(file, order.size)
    lowest.set(file, order.get(file)!)
    open.push(file)
    for (const next of edges.get(file) ?? []) {
      if (!order.has(next)) visit(next)
      if (open.includes(next)) lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!))
    }
    if (lowest.get(file) !== order.get(file)) return
    const component = open.splice(open.indexOf(file))
    if (component.length > 1 || edges.get(file)?.includes(file))
      circles.push(`a circle of imports: ${component.sort().join(', ')}`)
  }
  for (const file of edges.keys()) if (!order.has(file)) visit(file)
  return circles.sort()
}

describe.each(PROGRAMS)("the %s's folders stack as its layers.json declares", (program) => {
  const src = join(ROOT, 'packages', program, 'src')
  const entries = readdirSync(src, { withFileTypes: true })
  const parts = {
    folders: entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
    files: entries.filter((entry) => entry.isFile()).map((entry) => entry.name),
  }

  it('no import goes back up, and every folder and file of src/ is declared', () => {
    expect(layerViolations(declarationOf(program), parts, importsOf(src))).toEqual([])
  })

  it('no files import each other in a circle, type-only imports included', () => {
    expect(fileCircles(importsOf(src))).toEqual([])
  })

  it('reads the imports it judges', () => {
    expect(importsOf(src).length).toBeGreaterThan(100)
  })
})

describe('the check itself', () => {
  const declaration = { layers: [['db', 'http'], ['core'], ['web']], entries: ['index.ts'] }
  const parts = { folders: ['db', 'http', 'core', 'web'], files: ['index.ts'] }
  const judge = (file: string, specifier: string, target: string) =>
    layerViolations(declaration, parts, [{ file, specifier, target }])

  it('lets a folder import a lower one, and an entry import any', () => {
    expect(judge('web/page.ts', '../core/state.js', 'core/state.js')).toEqual([])
    expect(judge('core/state.ts', '../db/open.js', 'db/open.js')).toEqual([])
    expect(judge('index.ts', './web/page.js', 'web/page.js')).toEqual([])
  })

  it('refuses an import back up, across a layer, or of an entry', () => {
    expect(judge('core/state.ts', '../web/page.js', 'web/page.js')).toEqual([
      "core/state.ts imports '../web/page.js': web/ is above core/",
    ])
    expect(judge('db/open.ts', '../http/errors.js', 'http/errors.js')).toEqual([
      "db/open.ts imports '../http/errors.js': http/ is in the same layer as db/",
    ])
    expect(judge('core/a/b.ts', '../../index.js', 'index.js')).toEqual([
      "core/a/b.ts imports '../../index.js': index.js is an entry, above every folder",
    ])
  })

  it('refuses a folder or a file it was not told of, and a declared folder that is gone', () => {
    expect(
      layerViolations(
        declaration,
        { folders: ['db', 'http', 'core', 'pages'], files: ['index.ts', 'state.ts'] },
        [],
      ),
    ).toEqual([
      'pages/ is in no layer: declare it',
      'state.ts is not a declared entry',
      'web/ is gone',
    ])
  })

  it('finds the files that import each other in a circle, and passes a tree without one', () => {
    const imports = (pairs: [string, string][]) =>
      pairs.map(([file, target]) => ({ file, specifier: `./${target}`, target }))
    expect(
      fileCircles(
        imports([
          ['core/a.ts', 'core/b.js'],
          ['core/b.ts', 'core/c.js'],
          ['core/c.ts', 'core/a.js'],
          ['web/page.ts', 'web/page.js'],
          ['web/form.ts', 'core/a.js'],
        ]),
      ),
    ).toEqual([
      'a circle of imports: core/a.ts, core/b.ts, core/c.ts',
      'a circle of imports: web/page.ts',
    ])
    expect(
      fileCircles(
        imports([
          ['core/a.ts', 'core/b.js'],
          ['core/a.ts', 'core/c.js'],
          ['core/b.ts', 'core/c.js'],
          ['web/page.ts', 'core/a.js'],
        ]),
      ),
    ).toEqual([])
  })
})
