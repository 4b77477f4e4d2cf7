import { Hono } from 'hono'
import { z } from 'zod'
import { ensureUser, userName } from '../account/users.js'
import { createGrant } from '../auth/grants.js'
import { SHORT_SCOPES } from '../auth/scopes.js'
import { apisChange } from '../core/enabled-apis.js'
import { faultSpec, type FaultSpec } from '../core/faults.js'
import { quotaChange } from '../core/quota-limits.js'
import { clientRegistration } from '../core/registered-clients.js'
import type { LoggedRequest } from '../core/request-log.js'
import type { SandboxEnv } from '../core/state.js'
import { wireDialect } from '../core/wire-dialect.js'
import { readJsonObject } from '../http/body.js'
import { parseOrInvalid } from '../http/validate.js'
import { assetRoutes } from './assets.js'
import { sameOriginOnly } from './same-origin.js'
import { taskFixtureRoutes } from './task-fixtures.js'

const tokenRequest = z
  .object({
    user: userName,
    scopes: z
      .array(z.enum(SHORT_SCOPES as [string, ...string[]]))
      .min(1, 'give at least one scope'),
    client: z.string().min(1).max(200).default('sandbox-control'),
    /** Lifetime of the access token; tests of expiry and refresh set it low. */
    expires_in: z.number().int().min(1).max(86_400).optional(),
  })
  .strict()

/**
 * The control API (docs/sandbox.md, "Control API"): for tests and demos, unauthenticated by design,
 * and only ever served by the sandbox, which binds to loopback unless told otherwise, answers to
 * its own host names only (server/own-hosts.ts) and refuses requests from web pages of other origins here.
 */
export function controlRoutes() {
  const control = new Hono<SandboxEnv>()
  control.use(sameOriginOnly)

  control.post('/tokens', async (c) => {
    const { db, config } = c.var.sandbox
    const req = parseOrInvalid(tokenRequest, await readJsonObject(c))
    await ensureUser(db, req.user)
    const ttl = req.expires_in ?? config.accessTokenTtlSeconds
    const { tokens } = await createGrant(
      db,
      { user: req.user, client: req.client, scopes: req.scopes },
      ttl,
    )
    return c.json({
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_in: tokens.expires_in,
    })
  })

  control.route('/', assetRoutes())

  control.post('/faults', async (c) => {
    const spec = parseOrInvalid(faultSpec, await readJsonObject(c))
    c.var.sandbox.faults.add(spec)
    return c.json({ queued: faultOnTheWire(spec) })
  })

  control.get('/faults', (c) => c.json(c.var.sandbox.faults.list().map(faultOnTheWire)))

  control.delete('/faults', (c) => {
    c.var.sandbox.faults.clear()
    return c.json({ cleared: true })
  })

  control.route('/', taskFixtureRoutes())

  control.get('/requests', (c) => c.json(c.var.sandbox.requests.list().map(requestOnTheWire)))

  control.post('/quotas', async (c) => {
    const change = parseOrInvalid(quotaChange, await readJsonObject(c))
    return c.json(c.var.sandbox.limits.set(change))
  })

  control.get('/quotas', (c) => c.json(c.var.sandbox.limits.current))

  control.post('/apis', async (c) => {
    const change = parseOrInvalid(apisChange, await readJsonObject(c))
    return c.json(c.var.sandbox.apis.set(change))
  })

  control.get('/apis', (c) => c.json(c.var.sandbox.apis.current))

  control.post('/clients', async (c) => {
    const client = parseOrInvalid(clientRegistration, await readJsonObject(c))
    c.var.sandbox.clients.register(client)
    return c.json({ registered: client.clientId })
  })

  control.post('/reset', async (c) => {
    const { db, faults, requests, limits, quotas, requestQuotas, apis, clients } = c.var.sandbox
    await db.transaction().execute(async (trx) => {
      for (const table of [
        'tasks',
        'task_lists',
        'surface_items',
        'search_sitemaps',
        'added_sites',
        'added_accounts',
        'added_properties',
        'oauth_tokens',
        'oauth_grants',
        'oauth_codes',
        'sessions',
        'users',
      ] as const) {
        await trx.deleteFrom(table).execute()
      }
    })
    faults.clear()
    requests.clear()
    limits.reset()
    quotas.clear()
    requestQuotas.clear()
    apis.reset()
    clients.clear()
    return c.json({ reset: true })
  })

  return control
}

/** A fault as the control API writes it: its dialect by its wire name. */
function faultOnTheWire<Fault extends FaultSpec>(fault: Fault) {
  const { dialect } = fault.match
  return dialect ? { ...fault, match: { ...fault.match, dialect: wireDialect(dialect) } } : fault
}

/** A logged request as the control API writes it: its dialect by its wire name. */
function requestOnTheWire(entry: LoggedRequest) {
  return { ...entry, dialect: wireDialect(entry.dialect) }
}
