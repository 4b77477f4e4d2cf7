import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as forwardRequest, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { connectorForSuite, SERVICE_NAMES } from '@countersign/connector/testing'
import { installConformance, runScenario, type Check, type Conformance } from './runner.js'

/**
 * The official MCP conformance suite's generic server scenarios (docs/design.md, "Protocol
 * conformance") against each service's MCP endpoint of a real connector, at both revisions it
 * serves: 2025-11-25 (initialize, ping) and 2026-07-28 (stateless, header validation).
 *
 * The endpoints want a bearer token, which the suite does not send: a small front adds the
 * token of the service named in the path (got through the real OAuth flow) and passes everything
 * else as it came, Host and Origin included, so the connector's own DNS rebinding check meets the
 * suite's forged Host and Origin. The connector listens on loopback, where it answers to every
 * loopback name: the front's `127.0.0.1:<port>` is such a name.
 *
 * Not run: the scenarios written for the suite's own test server, which call its named tools
 * (tools-call-*, json-schema-2020-12, elicitation-sep*, server-sse-polling, input-required-result-*,
 * http-custom-header-server-validation: a tool with `x-mcp-header`), or need resources, prompts,
 * logging or completion (resources-*, sep-2164-resource-not-found, prompts-*, logging-set-level,
 * completion-complete, caching), or an extension (tasks-*, sep-2640-skills-*).
 */

type SpecVersion = '2025-11-25' | '2026-07-28'

interface Scenario {
  name: string
  specVersion: SpecVersion
  /**
   * Checks the scenario can exercise only against the suite's own diagnostic tools: each may fail
   * only with its "Not testable" message; any other failure of it is a failure.
   */
  untestable?: Record<string, RegExp>
  /** A check that must be reported (for a scenario whose passing is a check that does not apply). */
  mustReport?: string
}

const diagnosticTool = (tool: string) =>
  new RegExp(`^Not testable: server does not list the diagnostic tool '${tool}'`)

const SCENARIOS: Scenario[] = [
  { name: 'server-initialize', specVersion: '2025-11-25' },
  { name: 'ping', specVersion: '2025-11-25' },
  { name: 'tools-list', specVersion: '2025-11-25' },
  { name: 'tools-list', specVersion: '2026-07-28' },
  { name: 'dns-rebinding-protection', specVersion: '2025-11-25' },
  { name: 'dns-rebinding-protection', specVersion: '2026-07-28' },
  // No Mcp-Session-Id is issued: the lifecycle of a session does not apply, and it says so.
  {
    name: 'server-session-lifecycle',
    specVersion: '2025-11-25',
    mustReport: 'server-session-lifecycle-skipped',
  },
  {
    name: 'server-stateless',
    specVersion: '2026-07-28',
    untestable: {
      'sep-2575-server-rejects-undeclared-capability': diagnosticTool('test_missing_capability'),
      'sep-2575-missing-capability-http-400': diagnosticTool('test_missing_capability'),
      'sep-2575-http-server-no-independent-requests-on-stream': diagnosticTool(
        'test_streaming_elicitation',
      ),
      'sep-2575-server-no-log-without-loglevel': diagnosticTool('test_logging_tool'),
    },
  },
  { name: 'http-header-validation', specVersion: '2026-07-28' },
  // At 2025-11-25 it wants a session (a warning without one): stateless serving issues none.
  { name: 'server-sse-multiple-streams', specVersion: '2026-07-28' },
]

/** What the suite says when a stream it reads for a fixed time gave it nothing in that time. */
const MISSED_WINDOW = /dropped|failed to (yield|receive|open)|timed out/i

/** The first run downloads the suite (and, on Node 20, Node 24): minutes on a slow line. */
const INSTALL_TIMEOUT_MS = 240_000
/** The suite's own per-scenario bound is 30 s. */
const SCENARIO_TIMEOUT_MS = 60_000

const suite = connectorForSuite()
const tokens = new Map<string, string>()
let conformance: Conformance
let front: { url: string; close(): Promise<void> }
let outputRoot: string

beforeAll(async () => {
  outputRoot = await mkdtemp(join(tmpdir(), 'countersign-conformance-'))
  const connecting = (async () => {
    for (const service of SERVICE_NAMES) {
      const { tokens: issued } = await suite.connect({ service })
      tokens.set(service, issued.access_token)
    }
  })()
  const [installed] = await Promise.all([installConformance(INSTALL_TIMEOUT_MS), connecting])
  conformance = installed
  front = await startBearerFront(new URL(suite.url), (service) => tokens.get(service))
}, INSTALL_TIMEOUT_MS + 60_000)

afterAll(async () => {
  await front?.close()
  if (outputRoot) await rm(outputRoot, { recursive: true, force: true })
})

describe.concurrent('the conformance suite', () => {
  for (const service of SERVICE_NAMES) {
    for (const scenario of SCENARIOS) {
      it(
        `passes ${scenario.name} (${scenario.specVersion}) at /${service}/mcp`,
        async ({ expect }) => {
          const url = `${front.url}/${service}/mcp`
          const once = async () => {
            const run = await runScenario(
              conformance,
              { url, scenario: scenario.name, specVersion: scenario.specVersion, outputRoot },
              SCENARIO_TIMEOUT_MS,
            )
            const failed = run.checks.filter(
              (check) =>
                (check.status === 'FAILURE' || check.status === 'WARNING') &&
                !scenario.untestable?.[check.id]?.test(check.errorMessage ?? ''),
            )
            return { run, failed }
          }
          let { run, failed } = await once()
          // Some checks read a stream for a fixed 500 ms or so: on a loaded machine, with the
          // scenarios all running at once, an answer can come after it. A scenario whose only
          // failures are such missed windows runs once more; a real failure fails both runs.
          if (
            failed.length > 0 &&
            failed.every((check) => MISSED_WINDOW.test(check.errorMessage ?? ''))
          )
            ({ run, failed } = await once())
          expect(failed.map(describeCheck), `${scenario.name} against ${url}`).toEqual([])
          if (scenario.mustReport) {
            expect(run.checks.map((check) => check.id)).toContain(scenario.mustReport)
          } else {
            expect(run.checks.filter((check) => check.status === 'SUCCESS')).not.toHaveLength(0)
          }
        },
        SCENARIO_TIMEOUT_MS + 10_000,
      )
    }
  }
})

function describeCheck(check: Check): string {
  const details = check.details === undefined ? '' : `\n    ${JSON.stringify(check.details)}`
  return `${check.id} ${check.status}: ${check.errorMessage ?? check.description}${details}`
}

/**
 * A node:http front for the connector that adds `Authorization: Bearer <token>` for the service a
 * path names and forwards everything else unchanged: method, path, headers (Host and Origin too),
 * body, and the answer as it streams back (JSON or SSE).
 */
async function startBearerFront(
  target: URL,
  tokenFor: (service: string) => string | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const service = /^\/([^/?]+)\/mcp(?:[/?]|$)/.exec(req.url ?? '')?.[1]
    const token = service === undefined ? undefined : tokenFor(service)
    const headers = { ...req.headers }
    if (token) headers.authorization = `Bearer ${token}`
    const forward = forwardRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders)
        answer.pipe(res)
      },
    )
    forward.on('error', (error) => {
      if (res.headersSent) res.destroy(error)
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`front: ${error.message}`)
    })
    // A client that leaves early (an SSE stream it cancels) ends the forwarded request too.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy()
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
