import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { assistantV2, textOf } from '../../mcp/approval-clients.js'
import { taskFixtures } from '../../mcp/fixtures.js'
import {
  AuthorizationStopped,
  connectorForSuite,
  csrfOf,
  type Person,
} from '../../support/connector.js'
import { providerLog } from '../../support/provider-log.js'

/**
 * What the Google profile does differently (docs/design.md, "The Google profile"), through the real
 * connector against the sandbox's Google dialect, which behaves as Google does: one revocation ends
 * every token of the person at the client, If-Match is not honoured, the person's identity comes in
 * an ID token. (Everything the generic provider's profile does, the Google profile is also run
 * through: vitest.config.ts.)
 */

const lines: string[] = []
const suite = connectorForSuite({
  profile: 'google',
  options: { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) },
})
const { seed, upstreamCalls } = taskFixtures(suite)
let people = 0

/** The requests the sandbox's Google origin received since `from`, and the index to pass next. */
async function googleRequests(from = 0) {
  const log = await providerLog(suite)
  return {
    next: log.length,
    calls: log.slice(from).filter((entry) => entry.dialect === 'google'),
  }
}

const revocations = async (from: number) =>
  (await googleRequests(from)).calls.filter((entry) => entry.path === '/revoke')

const listTaskLists = { method: 'tools/call', params: { name: 'list_task_lists', arguments: {} } }
const listSites = { method: 'tools/call', params: { name: 'list_sites', arguments: {} } }
const analyticsMetadata = (propertiesId: string) => ({
  method: 'tools/call',
  params: { name: 'get_metadata', arguments: { propertiesId } },
})

/** Whether a tool call through the 2025-11-25 JSON answer succeeded. */
async function works(
  service: 'tasks' | 'search' | 'analytics',
  token: string,
  message: Record<string, unknown>,
) {
  const res = await suite.mcp(service, token, message)
  return res.status === 200 && res.body?.result?.isError !== true
}

/** The one paragraph of a problem page, as the person reads it. */
const problemOf = (page: string) =>
  /<p>([^<]*)<\/p>/.exec(page)?.[1]?.replace(/&#39;/g, "'").replace(/&amp;/g, '&')

/** The operator's line about a refusal at Google's page, since `from`. */
const deniedLines = (from: number) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line))
    .filter((line) => line.error === 'access_denied')

const NOT_A_TESTER =
  "If Google said that the app is being tested and you are not one of its testers, the connector's operator must first add your Google address under Google Auth Platform → Audience → Test users."
const OPERATOR_NOT_A_TESTER =
  'Google answered access_denied: the person declined, or the app is in Testing mode and they are not one of its test users: add their Google address under Google Auth Platform → Audience → Test users'

describe('the Google profile', () => {
  it('refused on Google’s page (declined, or not a test user): the page says what the operator must add, and so does the log', async () => {
    const client = await suite.registerClient()
    const person = suite.person(`google-not-a-tester-${++people}`)
    const logged = lines.length
    const stopped = await person
      .authorize(suite.authorizationUrl(client, 'tasks', suite.pkce()), { provider: 'Deny' })
      .catch((error: unknown) => error)
    expect(stopped).toBeInstanceOf(AuthorizationStopped)
    const { status, url, page } = stopped as AuthorizationStopped
    expect([status, new URL(url).pathname]).toEqual([400, '/upstream/callback'])
    expect(problemOf(page)).toBe(
      `You declined on the provider's page, so nothing was connected; start again from your assistant. ${NOT_A_TESTER}`,
    )
    expect(deniedLines(logged)).toEqual([
      expect.objectContaining({ level: 30, kind: 'authorization', msg: OPERATOR_NOT_A_TESTER }),
    ])
  })

  it('refused on Google’s page when signing in to /connections: the same, to sign in again', async () => {
    const person = suite.person(`google-not-a-tester-${++people}`)
    const logged = lines.length
    const end = await person.signInToConnections({ provider: 'Deny' })
    expect(end.status).toBe(400)
    expect(problemOf(end.text)).toBe(
      `You declined on the provider's page, so nothing was connected; sign in again. ${NOT_A_TESTER}`,
    )
    expect(deniedLines(logged)).toEqual([
      expect.objectContaining({ kind: 'sign-in', msg: OPERATOR_NOT_A_TESTER }),
    ])
  })

  it('asks Google for openid and the one service, offline with a fresh consent, PKCE S256, never incremental', async () => {
    const person = suite.person(`google-ask-${++people}`)
    const { consentUrl, html } = await suite.openConsent(person)
    const allowed = await person.fetch('POST', consentUrl, { csrf: csrfOf(html), Allow: 'Allow' })
    const google = new URL(allowed.headers.get('location')!)
    expect(`${google.origin}${google.pathname}`).toBe(`${suite.sandbox.googleUrl}/o/oauth2/v2/auth`)
    const params = Object.fromEntries(google.searchParams)
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'countersign',
      redirect_uri: `${suite.url}/upstream/callback`,
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    })
    expect(params.scope!.split(' ').sort()).toEqual([
      'https://www.googleapis.com/auth/tasks',
      'https://www.googleapis.com/auth/tasks.readonly',
      'openid',
    ])
    expect(params).not.toHaveProperty('include_granted_scopes')
  })

  it("takes the person's identity from the ID token: no userinfo request", async () => {
    const { next } = await googleRequests()
    const person = suite.person(`google-id-${++people}`)
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const { calls } = await googleRequests(next)
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /o/oauth2/v2/auth 200',
      'POST /o/oauth2/v2/auth 303',
      'POST /token 200',
      // The choice of what the grant covers: the person's lists, and their default one.
      'GET /tasks/v1/users/@me/lists 200',
      'GET /tasks/v1/users/@me/lists/%40default 200',
    ])
    expect((await suite.upstreamOf(person.user)).credential?.subject).toBe(person.user)
    expect(await works('tasks', tokens.access_token, listTaskLists)).toBe(true)
  })

  it("disconnecting one service leaves the person's others connected; Google is told with the last", async () => {
    const person: Person = suite.person(`google-three-${++people}`)
    const tasks = await suite.connect({ person, service: 'tasks' })
    const search = await suite.connect({ person, service: 'search' })
    const analytics = await suite.connect({ person, service: 'analytics' })
    const { properties } = (await suite.sandboxRequest('GET', `/_sandbox/users/${person.user}`))
      .body as { properties: string[] }

    // The assistant disconnects tasks: its grant and credential end, but Google is not told,
    // since that would end search and analytics too.
    const { next } = await googleRequests()
    expect((await suite.revoke(tasks.client, tasks.tokens.access_token)).status).toBe(200)
    expect((await suite.mcp('tasks', tasks.tokens.access_token)).status).toBe(401)
    expect(await revocations(next)).toEqual([])
    expect(await works('search', search.tokens.access_token, listSites)).toBe(true)
    expect(
      await works('analytics', analytics.tokens.access_token, analyticsMetadata(properties[0]!)),
    ).toBe(true)

    // Then search; analytics still works. Then analytics, the last: now Google is told.
    expect((await suite.revoke(search.client, search.tokens.refresh_token)).status).toBe(200)
    expect(await revocations(next)).toEqual([])
    expect(
      await works('analytics', analytics.tokens.access_token, analyticsMetadata(properties[0]!)),
    ).toBe(true)
    expect((await suite.revoke(analytics.client, analytics.tokens.access_token)).status).toBe(200)
    expect((await revocations(next)).map((r) => r.status)).toEqual([200])
    const held = await suite.store.db
      .selectFrom('upstream_credentials')
      .select('id')
      .where('subject', '=', person.user)
      .execute()
    expect(held).toEqual([])
  })

  it('signing in to /connections revokes nothing while the person is connected', async () => {
    const person = suite.person(`google-signin-${++people}`)
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const { next } = await googleRequests()
    const end = await person.signInToConnections()
    expect(end.text).toContain(`Signed in as <strong>${person.user}</strong>`)
    expect(await revocations(next)).toEqual([])
    expect(await works('tasks', tokens.access_token, listTaskLists)).toBe(true)
  })

  it('signing in with no connection ends the sign-in token at Google', async () => {
    const person = suite.person(`google-visitor-${++people}`)
    const { next } = await googleRequests()
    await person.signInToConnections()
    expect((await revocations(next)).map((r) => r.status)).toEqual([200])
  })

  it('reads an approved change’s task again before sending it: changed since, nothing is sent', async () => {
    const person = suite.person(`google-etag-${++people}`)
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const { tasklist, ids, providerToken } = await seed(person.user, 1)
    let changeItBeforeAnswering = false
    const assistant = await assistantV2(`${suite.url}/tasks/mcp`, tokens.access_token, async () => {
      if (changeItBeforeAnswering) {
        // Someone else renames the task while the person reads the question (through the
        // generic dialect: the same data, and not a request the connector made).
        const renamed = await suite.sandboxRequest(
          'PATCH',
          `/tasks/v1/lists/${tasklist}/tasks/${ids[0]}`,
          { token: providerToken, json: { title: 'Renamed elsewhere' } },
        )
        expect(renamed.status).toBe(200)
      }
      return { action: 'accept', content: { approve: true } }
    })

    // As seen: the task is read again (same etag) and the change goes.
    let { next } = await upstreamCalls()
    const done = await assistant.call('update_task', { tasklist, task: ids[0], notes: 'a' })
    expect(done.isError ?? false, textOf(done)).toBe(false)
    const sent = (await upstreamCalls(next)).calls.map((c) => `${c.method} ${c.path}`)
    const task = `/tasks/v1/lists/${tasklist}/tasks/${ids[0]}`
    expect(sent.slice(-2)).toEqual([`GET ${task}`, `PATCH ${task}`])

    // Changed after the person saw it: refused, with nothing written.
    changeItBeforeAnswering = true
    ;({ next } = await upstreamCalls())
    const refused = await assistant.call('update_task', { tasklist, task: ids[0], notes: 'b' })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/Nothing was changed: .* modified after the person approved/)
    expect((await upstreamCalls(next)).writes).toEqual([])
    await assistant.close()
  })
})
