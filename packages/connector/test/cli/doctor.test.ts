import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startSandbox, type RunningSandbox } from '@countersign/sandbox'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runDoctor } from '../../src/cli/doctor/doctor.js'
import { googleSandboxUpstream } from '../../src/connector/sandbox-upstream.js'
import { describeEachEngine } from '../support/engines.js'
import { FROM_SOURCES, freePort, upstreamEnvironment } from '../support/processes.js'

/**
 * `countersign doctor` against the sandbox's Google dialect, which checks a registered client as
 * Google does and can be told an API is not enabled: each thing a newcomer gets wrong first, and
 * the line that tells them what to change.
 */

const CLIENT_ID = '4242-doctor.apps.googleusercontent.com'
const SECRET = 'GOCSPX-the-right-one'

let sandbox: RunningSandbox
const folders: string[] = []
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
})
afterAll(async () => {
  await sandbox?.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})
beforeEach(async () => {
  await control('/_sandbox/reset')
  await control('/_sandbox/clients', { clientId: CLIENT_ID, clientSecret: SECRET })
})

async function control(path: string, body?: unknown) {
  const response = await fetch(sandbox.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  })
  expect(response.status, await response.clone().text()).toBe(200)
}

/** An operator's environment for Google, on the sandbox, a fresh data folder and a free port. */
async function googleEnvironment(overrides: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-doctor-'))
  folders.push(dataDir)
  const port = await freePort()
  return {
    ...upstreamEnvironment({
      ...googleSandboxUpstream(sandbox.googleUrl),
      clientId: CLIENT_ID,
      clientSecret: SECRET,
    }),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    METRICS_PORT: '0',
    ...overrides,
  }
}

const lines = (text: string) => text.split('\n')
const marked = (text: string, mark: '✓' | '✗' | '·') =>
  lines(text).filter((line) => line.startsWith(`${mark} `))

describe('countersign doctor, with Google’s dialect', () => {
  it('a good setup: every line holds, the redirect URI to register is printed, exit 0', async () => {
    const env = await googleEnvironment()
    const { text, exitCode } = await runDoctor(env)
    expect(marked(text, '✗'), text).toEqual([])
    expect(exitCode).toBe(0)
    expect(text).toContain(
      `Redirect URI to register on the OAuth client, exactly: ${env.PUBLIC_URL}/upstream/callback`,
    )
    expect(text).toContain("✓ Google's token endpoint accepts the client id and secret")
    expect(text).toContain("✓ the provider's other 6 endpoints answer from here")
    expect(text).toMatch(/countersign doctor --sign-in` checks them/)
    expect(lines(text).at(-1)).toMatch(/^Everything holds/)
  })

  it('a wrong secret: Google refuses it, and the doctor says where to copy it from', async () => {
    const { text, exitCode } = await runDoctor(
      await googleEnvironment({ UPSTREAM_CLIENT_SECRET: 'GOCSPX-an-old-one' }),
    )
    expect(exitCode).toBe(1)
    expect(marked(text, '✗')).toEqual([
      '✗ Google refuses the client secret for this client id: copy the secret again (or add a new one) in Google Auth Platform → Clients → your client',
    ])
    expect(lines(text).at(-1)).toBe(
      'One thing to change. First: Google refuses the client secret for this client id: copy the secret again (or add a new one) in Google Auth Platform → Clients → your client',
    )
  })

  it('an unknown client id: Google does not know it', async () => {
    const { text, exitCode } = await runDoctor(
      await googleEnvironment({ UPSTREAM_CLIENT_ID: '4242-typo.apps.googleusercontent.com' }),
    )
    expect(exitCode).toBe(1)
    expect(marked(text, '✗')).toEqual([
      '✗ Google does not know the client id: copy the Client ID again from Google Auth Platform → Clients, in the Cloud project you set up',
    ])
    expect(text).toContain('Google said: The OAuth client was not found.')
  })

  it('a client id of another form: said before Google is asked', async () => {
    const { text } = await runDoctor(await googleEnvironment({ UPSTREAM_CLIENT_ID: 'my-client' }))
    expect(marked(text, '✗')[0]).toBe(
      '✗ UPSTREAM_CLIENT_ID does not look like a Google OAuth client id (digits-letters.apps.googleusercontent.com): copy the Client ID of your Web application client from Google Auth Platform → Clients',
    )
  })

  it('PUBLIC_URL on plain http off loopback: a TLS proxy in front, https in PUBLIC_URL', async () => {
    const { text, exitCode } = await runDoctor(
      await googleEnvironment({ PUBLIC_URL: 'http://connector.example.com' }),
    )
    expect(exitCode).toBe(1)
    expect(marked(text, '✗')).toEqual([
      '✗ PUBLIC_URL http://connector.example.com is plain http on another machine: put a TLS proxy in front and set PUBLIC_URL=https://connector.example.com',
    ])
  })

  it('a taken port: said in the words of the connector’s own start, with the server that holds it', async () => {
    const holder = await listening()
    try {
      const port = String((holder.address() as AddressInfo).port)
      const { text, exitCode } = await runDoctor(
        await googleEnvironment({ PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}` }),
      )
      expect(exitCode).toBe(1)
      expect(marked(text, '✗')).toEqual([
        `✗ PORT ${port} is already in use on 127.0.0.1: set PORT to a free port. A server there answers /healthz: stop it first, if it is a connector.`,
      ])
    } finally {
      holder.close()
    }
  })

  it('an endpoint that cannot be reached: named by its variable', async () => {
    const closed = await freePort()
    const { text } = await runDoctor(
      await googleEnvironment({ UPSTREAM_USERINFO_URL: `http://127.0.0.1:${closed}/v1/userinfo` }),
    )
    expect(marked(text, '✗')).toEqual([
      `✗ UPSTREAM_USERINFO_URL http://127.0.0.1:${closed}/v1/userinfo cannot be reached from here: ECONNREFUSED`,
    ])
  })

  it('a vault key that is not one, and PostgreSQL without one', async () => {
    const { text } = await runDoctor(await googleEnvironment({ VAULT_KEY: 'not-a-key' }))
    expect(marked(text, '✗')).toEqual([expect.stringMatching(/^✗ VAULT_KEY/)])
    const postgres = await runDoctor(
      await googleEnvironment({ DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }),
    )
    expect(marked(postgres.text, '✗')[0]).toBe(
      '✗ VAULT_KEY is not set, and PostgreSQL needs it: every replica seals with the same key. Make one with `openssl rand -base64 32` and set it on each replica.',
    )
    expect(marked(postgres.text, '✗')[1]).toMatch(
      /^✗ PostgreSQL at postgres:\/\/nobody@127\.0\.0\.1:9\/none cannot be read: ECONNREFUSED/,
    )
  })

  it('--sign-in: the Analytics Admin API not enabled is named with Google’s own link; the token is revoked', async () => {
    await control('/_sandbox/apis', { disabled: ['analyticsadmin.googleapis.com'] })
    const env = await googleEnvironment()
    let signedIn: Promise<void> | undefined
    const { text, exitCode } = await runDoctor(env, {
      show: (url) => void (signedIn = signIn(url, 'Allow')),
    })
    await signedIn
    expect(exitCode).toBe(1)
    expect(marked(text, '✗')).toEqual([
      '✗ the Google Analytics Admin API is not enabled in the Cloud project of the OAuth client: enable it at https://console.developers.google.com/apis/api/analyticsadmin.googleapis.com/overview?project=0, then wait a few minutes',
    ])
    expect(text).toContain(
      '✓ you signed in: the OAuth client, its redirect URI and your account work together',
    )
    for (const api of [
      'Google Tasks API',
      'Google Search Console API',
      'Google Analytics Data API',
    ])
      expect(text).toContain(`✓ the ${api} is enabled`)
    expect(text).not.toMatch(/countersign doctor --sign-in` checks them/)
    const log = await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()
    expect(log).toContainEqual({ method: 'POST', path: '/revoke', status: 200, dialect: 'google' })
  })

  it('--sign-in, refused at Google: the doctor says to add the address as a test user', async () => {
    let signedIn: Promise<void> | undefined
    const { text, exitCode } = await runDoctor(await googleEnvironment(), {
      show: (url) => void (signedIn = signIn(url, 'Deny')),
    })
    await signedIn
    expect(exitCode).toBe(1)
    expect(marked(text, '✗')).toEqual([
      '✗ Google answered access_denied: if it said the app is being tested, add your Google address under Google Auth Platform → Audience → Test users, then sign in again',
    ])
  })

  it('as an operator runs it: `countersign doctor` prints the lines and exits 1 with the first fix', async () => {
    const env = await googleEnvironment({ UPSTREAM_CLIENT_SECRET: 'GOCSPX-an-old-one' })
    const outcome = await promisify(execFile)(
      process.execPath,
      [...FROM_SOURCES, 'packages/connector/src/cli/main.ts', 'doctor'],
      { env: { PATH: process.env.PATH, ...env } },
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toMatch(
      /^One thing to change\. First: Google refuses the client secret/m,
    )
  })
})

describeEachEngine('countersign doctor, the database', (engine) => {
  it('a store the connector has opened: reached, its schema up to date', async () => {
    const { databaseUrl, dataDir } = await engine.location()
    const env = await googleEnvironment({
      ...(databaseUrl && {
        DATABASE_URL: databaseUrl,
        VAULT_KEY: randomBytes(32).toString('base64'),
      }),
      ...(dataDir && { DATA_DIR: dataDir }),
    })
    await engine.openStore()
    const { text } = await runDoctor(env)
    expect(marked(text, '✗'), text).toEqual([])
    expect(text).toMatch(
      databaseUrl
        ? /^✓ PostgreSQL at postgres:\/\/.+ is reached, its schema up to date$/m
        : /^✓ SQLite .+connector\.db is reached, its schema up to date$/m,
    )
  })
})

/** The operator in the browser: the sandbox's Google sign-in, then back to the doctor. */
async function signIn(url: string, button: 'Allow' | 'Deny') {
  const page = await fetch(url, { redirect: 'manual' })
  const html = await page.text()
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
  if (!action) throw new Error(`no sign-in form at ${url}: ${page.status}`)
  const decided = await fetch(new URL(action, url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(
      button === 'Allow'
        ? { user: `operator-${randomBytes(3).toString('hex')}`, Allow: 'Allow' }
        : { Deny: 'Deny' },
    ),
  })
  const back = decided.headers.get('location')
  if (!back) throw new Error(`the sign-in answered ${decided.status}: ${await decided.text()}`)
  const callback = await fetch(back)
  expect(await callback.text()).toMatch(/you can close this tab/)
}

/** A server answering /healthz, as a connector already running there would. */
function listening(): Promise<Server> {
  const server = createServer((request, response) =>
    response.writeHead(request.url === '/healthz' ? 200 : 404).end(),
  )
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}
