import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

/**
 * Imports that would tie the two programs together (docs/architecture.md, "Two programs, two
 * packages": they talk only over HTTP).
 */
const otherProgram = (name) => ({
  patterns: [
    {
      group: [`@countersign/${name}`, `@countersign/${name}/*`, `**/${name}/src/**`],
      message: `The ${name === 'sandbox' ? 'connector' : 'sandbox'} never imports the ${name}: the two programs talk only over HTTP (docs/architecture.md, "Two programs, two packages").`,
    },
  ],
})

/**
 * Each program's folders stack, lowest first, as `packages/{name}/layers.json` declares them
 * (docs/architecture.md, "The connector's parts", "The sandbox's parts"): a folder imports only
 * folders of lower layers, never one of its own layer, one above or an entry (a file at `src/`'s
 * top). A file `depth` folders below `src/` reaches another folder through `depth` times `../`,
 * so the patterns are written per depth. Each block also carries the package's boundary, since
 * a later block's `no-restricted-imports` replaces an earlier one's. test/architecture/
 * layers.test.ts reads every import of both trees against the same declarations.
 */
const layerRules = (name, other) => {
  const declared = join(import.meta.dirname, `packages/${name}/layers.json`)
  const { layers, entries } = JSON.parse(readFileSync(declared, 'utf8'))
  const src = `packages/${name}/src`
  const paths = readdirSync(join(import.meta.dirname, src), { recursive: true, encoding: 'utf8' })
  const deepest = Math.max(...paths.map((path) => path.split('/').length - 1))
  return layers.flatMap((layer, index) =>
    layer.flatMap((folder) => {
      const higher = layers
        .slice(index)
        .flat()
        .filter((part) => part !== folder)
      const parts = [
        ...higher.map((part) => `${part}/`),
        ...entries.map((e) => e.replace(/\.ts$/, '\\.js$')),
      ]
      return Array.from({ length: deepest }, (_, below) => ({
        files: [`${src}/${folder}/${'*/'.repeat(below)}*.ts`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                ...otherProgram(other).patterns,
                {
                  regex: `^(\\.\\./){${below + 1}}(${parts.join('|')})`,
                  message: `Layers (packages/${name}/layers.json): ${folder}/ imports only the folders of lower layers; move what both need below both, or change the declared order.`,
                },
              ],
            },
          ],
        },
      }))
    }),
  )
}

/**
 * No files of either program's `src/` import each other in a circle (docs/architecture.md, "The
 * sandbox's parts"). Imports name the compiled `./file.js` of `file.ts`, so the resolver looks
 * for the `.ts`. `import-x/no-cycle` follows runtime imports only, by its own design:
 * test/architecture/layers.test.ts finds the circles of type-only imports too.
 */
const noFileCircles = {
  files: ['packages/connector/src/**/*.ts', 'packages/sandbox/src/**/*.ts'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/extensions': ['.ts'],
    'import-x/resolver-next': [
      createNodeResolver({ extensions: ['.ts'], extensionAlias: { '.js': ['.ts'] } }),
    ],
  },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
}

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/data/', '**/dist/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The package boundary: only the development launcher (dev/) composes the two.
    files: ['packages/connector/src/**'],
    rules: { 'no-restricted-imports': ['error', otherProgram('sandbox')] },
  },
  {
    files: ['packages/sandbox/**'],
    rules: { 'no-restricted-imports': ['error', otherProgram('connector')] },
  },
  ...layerRules('connector', 'sandbox'),
  ...layerRules('sandbox', 'connector'),
  noFileCircles,
  {
    // The connector's tests use the sandbox as their provider, through its package entries only.
    files: ['packages/connector/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sandbox/src/**', '**/sandbox/test/**'],
              message: "Use the sandbox through '@countersign/sandbox' or its '/testing' entry.",
            },
          ],
        },
      ],
    },
  },
  {
    // The root's tests and benchmarks use each package through its entries, never by a path, so
    // that a package's parts can move without breaking them.
    files: ['test/**', 'bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/packages/*/test/**'],
              message:
                "Use a package's test support through '@countersign/connector/testing' or '@countersign/sandbox/testing'.",
            },
            {
              group: ['**/packages/*/src/**'],
              message:
                "Use a package through its entries: '@countersign/connector', '@countersign/sandbox', or their '/testing' (packages/{connector,sandbox}/test/support/testing.ts), which exports what a test needs of the sources.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers loosely and assert on them.
    files: ['**/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/*/src/cli/**', 'dev/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
)
