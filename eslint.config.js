import js from '@eslint/js'
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
    // The root's tests and benchmarks use each package's test support through its entry.
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
