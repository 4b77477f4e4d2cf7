import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { serve, type ServerType } from '@hono/node-server'
import { EarlyAnswerResponse, listenError, type Listening } from '@countersign/environment'
import type { Hono } from 'hono'
import type { KyselyPlugin } from 'kysely'
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_SCOPE_PREFIX,
  type SandboxConfig,
} from '../core/config.js'
import { genericDialect } from '../core/dialect.js'
import { EnabledApis } from '../core/enabled-apis.js'
import { FaultBook } from '../core/faults.js'
import { PropertyQuotas } from '../core/property-quotas.js'
import { QuotaLimits } from '../core/quota-limits.js'
import { RegisteredClients } from '../core/registered-clients.js'
import { RequestLog } from '../core/request-log.js'
import { RequestQuotas } from '../core/request-quotas.js'
import type { SandboxEnv, SandboxState } from '../core/state.js'
import { openSandboxDb, type SandboxDb } from '../db/open.js'
import { googleDialect } from '../google/dialect.js'
import { createGoogleApp } from './google-app.js'
import { createSandboxApp } from './sandbox-app.js'

export interface SandboxOptions {
  /** The generic dialect's origin S; 0 picks a free port. */
  port: number
  /**
   * The Google dialect's origin G (docs/sandbox.md, "Google dialect"), on the same host; 0 or
   * absent picks a free port.
   */
  googlePort?: number
  host?: string
  /** The sandbox keeps its database in `dataDir/sandbox.db`; ':memory:' keeps nothing. */
  dataDir: string | ':memory:'
  publicUrl?: string
  /** G's external origin, used as its issuer and in its selfLinks. */
  googlePublicUrl?: string
  scopePrefix?: string
  accessTokenTtlSeconds?: number
  /** Query-layer plugins, e.g. the benchmark's counter of rows written. */
  plugins?: KyselyPlugin[]
}

export interface RunningSandbox {
  /** S: the generic dialect, the pages and the control API. */
  url: string
  /** G: Google's dialect, over the same data. */
  googleUrl: string
  state: SandboxState
  db: SandboxDb
  /** Closes both origins, then the store. */
  close(): Promise<void>
}

/** Opens the sandbox's store and serves both origins; resolves once both answer. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1'
  const file = options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'sandbox.db')
  const db = await openSandboxDb({ file, plugins: options.plugins })
  const config: SandboxConfig = {
    publicUrl: options.publicUrl ?? '',
    googlePublicUrl: options.googlePublicUrl ?? '',
    scopePrefix: options.scopePrefix ?? DEFAULT_SCOPE_PREFIX,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  }
  const limits = new QuotaLimits()
  const state: SandboxState = {
    db,
    config,
    faults: new FaultBook(),
    requests: new RequestLog(),
    limits,
    quotas: new PropertyQuotas(limits),
    requestQuotas: new RequestQuotas(limits),
    apis: new EnabledApis(),
    clients: new RegisteredClients(),
  }
  const servers: ServerType[] = []
  try {
    const seed = await listen(createSandboxApp(state, genericDialect(config)), {
      portVariable: 'SANDBOX_PORT',
      hostVariable: 'SANDBOX_HOST',
      port: options.port,
      host,
    })
    servers.push(seed)
    const google = await listen(createGoogleApp(state, googleDialect(config)), {
      portVariable: 'SANDBOX_GOOGLE_PORT',
      hostVariable: 'SANDBOX_HOST',
      port: options.googlePort ?? 0,
      host,
    })
    servers.push(google)
    config.publicUrl ||= originOf(host, seed)
    config.googlePublicUrl ||= originOf(host, google)
  } catch (error) {
    await Promise.all(servers.map(closeServer))
    await db.destroy()
    throw error
  }
  return {
    url: config.publicUrl,
    googleUrl: config.googlePublicUrl,
    state,
    db,
    async close() {
      await Promise.all(servers.map(closeServer))
      await db.destroy()
    },
  }
}

/** Listens, or fails with one line that names the variable to change. */
function listen(app: Hono<SandboxEnv>, at: Listening): Promise<ServerType> {
  return new Promise<ServerType>((resolve, reject) => {
    // An answer sent while its request's body is still arriving says `Connection: close`.
    const server = serve(
      {
        fetch: app.fetch,
        port: at.port,
        hostname: at.host,
        serverOptions: { ServerResponse: EarlyAnswerResponse },
      },
      () => resolve(server),
    )
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, at)))
  })
}

/** The loopback origin a server listens at (a wildcard host is reached on 127.0.0.1). */
function originOf(host: string, server: ServerType): string {
  const { port } = server.address() as AddressInfo
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve())
    if ('closeAllConnections' in server) server.closeAllConnections()
  })
}
