import { randomBytes } from 'node:crypto'
import { format } from 'node:util'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import {
  approvalFlow,
  connectorForSuite,
  type ConnectorHarness,
  createLogger,
  csrfOf,
  describeEachEngine,
  dumpStore,
} from '@countersign/connector/testing'

/**
 * No token or payload in logs (docs/threat-model.md, "No token or payload in logs"; and
 * docs/design.md, "What is kept"), as a canary: a whole flow and some calls, with the connector
 * logging at debug level and the sandbox's console captured; then every token, code, secret,
 * cookie, PKCE verifier, upstream token, the vault key and a canary string written into a task
 * title are searched for in the logs and in a dump of every table of the store, on both engines.
 * None may appear in plain text.
 */

/** The sandbox (in this process) writes to the console; what it writes is kept here. */
const consoleLines: string[] = []
beforeAll(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleLines.push(format(...args))
    })
  }
})
afterAll(() => {
  vi.restoreAllMocks()
})

describeEachEngine('no token or payload in logs, nor in the store (canary)', (engine) => {
  const logLines: string[] = []
  const suite = connectorForSuite({
    connector: () => engine.location(),
    options: {
      log: createLogger({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
    },
  })

  it('after a full flow and some calls, no secret and no payload appears anywhere', async () => {
    const secrets = await runEverything(suite)

    const logs = logLines.join('')
    // The logs did record the flow: the search below is not over an empty string.
    expect(logs).toContain('authorization granted')
    expect(logs).toContain('"path":"/oauth/token"')
    expect(logs).toContain('grant ended')
    expect(logs).not.toMatch(/[?&](code|state)=/)
    const store = await dumpStore(suite.store)
    expect(store).toContain('grant_links')
    const sandboxConsole = consoleLines.join('\n')

    expect(Object.keys(secrets).length).toBeGreaterThan(15)
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThanOrEqual(16)
      expect(logs.includes(value), `${what} found in the connector's logs`).toBe(false)
      expect(store.includes(value), `${what} found in the store`).toBe(false)
      expect(sandboxConsole.includes(value), `${what} found in the sandbox's console`).toBe(false)
    }
  })
})

/**
 * Registration, authorization, token, refresh, MCP calls, the upstream token used and refreshed,
 * a task written with the canary title, a sign-in to the connections page, a disconnect there and
 * a revocation: every secret met on the way, by name.
 */
async function runEverything(suite: ConnectorHarness): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {
    'vault key': suite.connector.parts.config.vaultKey!,
  }
  const canary = `canary-payload-${randomBytes(12).toString('hex')}`
  secrets['canary task title'] = canary

  const person = suite.person('canary-person')
  const client = await suite.registerClient({
    client_name: 'Canary Assistant',
    token_endpoint_auth_method: 'client_secret_post',
  })
  secrets['client secret'] = client.client_secret!
  secrets['registration access token'] = client.registration.registration_access_token
  const { tokens, code, pkce } = await suite.connect({ person, client })
  Object.assign(secrets, {
    code,
    'PKCE verifier': pkce.verifier,
    'access token': tokens.access_token,
    'refresh token': tokens.refresh_token,
  })
  const refreshed = await suite.refresh(client, tokens.refresh_token)
  expect(refreshed.status).toBe(200)
  secrets['rotated access token'] = refreshed.body.access_token
  secrets['rotated refresh token'] = refreshed.body.refresh_token
  const accessToken: string = refreshed.body.access_token

  // MCP calls.
  expect((await suite.mcp('tasks', accessToken)).status).toBe(200)
  const initialize = await suite.mcp('tasks', accessToken, {
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'canary', version: '1' },
    },
  })
  expect(initialize.status).toBe(200)
  expect((await suite.mcp('tasks', accessToken, { method: 'tools/list' })).status).toBe(200)
  expect((await suite.mcp('tasks', 'not-a-token')).status).toBe(401)

  // The grant's upstream token, as a tool gets it; then refreshed, as after a provider 401.
  const request = new Request(`${suite.url}/tasks/mcp`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const auth = await suite.connector.parts.authenticator.authenticate(request, 'tasks')
  if (!auth.ok) throw new Error(`not authenticated: ${auth.response.status}`)
  const upstreamToken = await auth.grant.upstreamAccessToken()
  secrets['upstream access token'] = upstreamToken
  secrets['upstream refresh token'] = (
    await suite.upstreamOf('canary-person')
  ).tokens!.refresh_token!
  const created = await suite.sandboxRequest('POST', '/tasks/v1/lists/@default/tasks', {
    token: upstreamToken,
    json: { title: canary, notes: `${canary} notes` },
  })
  expect(created.status).toBe(200)
  const renewed = await auth.grant.upstreamTokenAfterUnauthorized(upstreamToken)
  expect(renewed).not.toBe(upstreamToken)
  secrets['refreshed upstream access token'] = renewed
  const listed = await suite.sandboxRequest('GET', '/tasks/v1/lists/@default/tasks', {
    token: renewed,
  })
  expect(listed.text).toContain(canary)
  // Once the task tools exist, the payload goes through the connector too.
  const tools = await suite.mcp('tasks', accessToken, { method: 'tools/list' })
  if (tools.text.includes('"list_tasks"')) {
    const call = await suite.mcp('tasks', accessToken, {
      method: 'tools/call',
      params: { name: 'list_tasks', arguments: { tasklist: '@default' } },
    })
    expect(call.text).toContain(canary)
  }

  // A change through the connector, with the canary in its title and notes: asked about on the
  // approval page (the person, in a browser of their own), approved, then made.
  const args = {
    tasklist: '@default',
    title: `${canary} via the connector`,
    notes: `${canary} notes via the connector`,
  }
  const createTask = () =>
    suite.mcp('tasks', accessToken, {
      method: 'tools/call',
      params: { name: 'create_task', arguments: args },
    })
  const link = /(https?:\/\/\S+\/approvals\/([A-Za-z0-9_-]{43}))/.exec((await createTask()).text)
  if (!link) throw new Error('create_task did not ask for approval')
  secrets['approval id'] = link[2]!
  const approver = suite.person('canary-person')
  const approvals = approvalFlow(suite)
  await approvals.signInFrom(approver, link[1]!)
  expect((await approvals.decide(approver, link[1]!, 'Approve')).status).toBe(200)
  const made = await createTask()
  expect(made.text).toContain(`${canary} notes via the connector`)

  // The connections page: sign in, disconnect a second assistant there.
  const second = await suite.connect({
    person,
    client: await suite.registerClient({ client_name: 'Second Canary Assistant' }),
  })
  secrets['second access token'] = second.tokens.access_token
  secrets['second refresh token'] = second.tokens.refresh_token
  secrets['second code'] = second.code
  const page = await person.signInToConnections()
  const secondGrant = (
    await suite.store.db
      .selectFrom('grant_links')
      .select('grant_id')
      .where('client_id', '=', second.client.client_id)
      .executeTakeFirstOrThrow()
  ).grant_id
  const disconnected = await person.fetch('POST', `${suite.url}/connections/disconnect`, {
    csrf: csrfOf(page.text),
    grant: secondGrant,
  })
  expect(disconnected.status).toBe(303)

  // Every cookie the person's browser holds for the connector.
  for (const path of ['/', '/connections', '/upstream/callback', '/oauth/authorize/x']) {
    for (const pair of person.cookies.header(new URL(suite.url + path)).split('; ')) {
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value.length >= 16) secrets[`cookie ${pair.slice(0, pair.indexOf('='))}`] = value
    }
  }

  // The assistant disconnects itself.
  expect((await suite.revoke(client, accessToken)).status).toBe(200)
  expect((await suite.mcp('tasks', accessToken)).status).toBe(401)
  return secrets
}
