import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Every suite runs against the sandbox in the generic dialect: each package's own tests
 * (packages/{connector,sandbox}/test) and what spans both at the root (test/: end-to-end,
 * conformance, browser and security tests). The suites that go through the provider (tools,
 * approvals, disconnects, faults, replicas, pages) run a second time with the connector in the
 * Google profile against the sandbox's Google dialect (docs/design.md, "The Google profile"): the
 * same tests, which read TEST_UPSTREAM_PROFILE through
 * packages/connector/test/support/connector.ts.
 */
const THROUGH_THE_PROVIDER = [
  'packages/connector/test/account/connections.test.ts',
  'packages/connector/test/account/coverage.test.ts',
  'packages/connector/test/approval/page.test.ts',
  'packages/connector/test/mcp/approval.test.ts',
  'packages/connector/test/mcp/coverage.test.ts',
  'packages/connector/test/mcp/credential-revoked.test.ts',
  'packages/connector/test/mcp/fair-shares.test.ts',
  'packages/connector/test/mcp/grant-listing.test.ts',
  'packages/connector/test/mcp/faults.test.ts',
  'packages/connector/test/mcp/legacy-asking.test.ts',
  'packages/connector/test/mcp/tools.test.ts',
  'packages/connector/test/mcp/usage-limits.test.ts',
  'packages/connector/test/services/*/mcp.test.ts',
  'packages/connector/test/services/model-budget.test.ts',
  'packages/connector/test/services/*/submit.test.ts',
  'packages/connector/test/services/*/tools.test.ts',
  'test/browser/approval-page.test.ts',
  'test/browser/authorization.test.ts',
  'test/e2e/*.test.ts',
  'test/security/canary.test.ts',
]

/**
 * Tests run the sources: each workspace package's `@countersign/source` export condition (its
 * `src/*.ts`) comes before `default` (its compiled `dist/`), so a stale build never stands in for
 * the code. (A plain `source` condition would also pick other packages' published TypeScript.)
 */
const SOURCE = '@countersign/source'

/**
 * Test files at a time. Most of a file's time is spent waiting (on the sandbox, PostgreSQL, a
 * browser or a child process), so two run side by side even on two cores; vitest's own default,
 * one fewer than the cores, would run one at a time there.
 */
const FILES_AT_A_TIME = Math.max(2, availableParallelism())

export default defineConfig({
  // Node tests resolve in Vite's server environment: its default conditions, with ours first.
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: FILES_AT_A_TIME,
    /**
     * A worker runs file after file in one module graph: the connector, the sandbox and their
     * dependencies are imported once per worker rather than once per file (imports took a
     * quarter of the suite's time). Every file starts its own servers and stores and closes them;
     * test/support/isolation.ts undoes what a file may leave on the process's globals.
     */
    isolate: false,
    setupFiles: [fileURLToPath(new URL('test/support/isolation.ts', import.meta.url))],
    projects: [
      {
        extends: true,
        test: { name: 'generic', include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'google',
          include: THROUGH_THE_PROVIDER,
          env: { TEST_UPSTREAM_PROFILE: 'google' },
        },
      },
    ],
  },
})
