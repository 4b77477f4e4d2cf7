import { defineConfig } from 'vitest/config'

/**
 * Every suite runs against the sandbox in the seed's dialect. The suites that go through the
 * provider (tools, approvals, disconnects, faults, replicas, pages) run a second time with the
 * connector in the Google profile against the sandbox's Google dialect (DESIGN §9): the same
 * tests, which read TEST_UPSTREAM_PROFILE through test/support/connector.ts.
 */
const THROUGH_THE_PROVIDER = [
  'test/account/connections.test.ts',
  'test/approval/browser.test.ts',
  'test/approval/page.test.ts',
  'test/e2e/*.test.ts',
  'test/mcp/approval.test.ts',
  'test/mcp/credential-revoked.test.ts',
  'test/mcp/faults.test.ts',
  'test/mcp/tools.test.ts',
  'test/security/canary.test.ts',
  'test/services/*/mcp.test.ts',
  'test/services/*/submit.test.ts',
  'test/services/*/tools.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'seed', include: ['test/**/*.test.ts'] } },
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
