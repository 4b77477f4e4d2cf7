import { join } from 'node:path'
import { serve, type ServerType } from '@hono/node-server'
import { createSandboxApp, type SandboxState } from './app.js'
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_SCOPE_PREFIX,
  type SandboxConfig,
} from './config.js'
import { FaultBook } from './control/faults.js'
import { RequestLog } from './control/request-log.js'
import type { KyselyPlugin } from 'kysely'
import { openSandboxDb, type SandboxDb } from './db/open.js'

export interface SandboxOptions {
  /** 0 picks a free port. */
  port: number
  host?: string
  /** The sandbox keeps its database in `dataDir/sandbox.db`; ':memory:' keeps nothing. */
  dataDir: string | ':memory:'
  publicUrl?: string
  scopePrefix?: string
  accessTokenTtlSeconds?: number
  /** Query-layer plugins, e.g. the benchmark's counter of rows written. */
  plugins?: KyselyPlugin[]
}

export interface RunningSandbox {
  url: string
  state: SandboxState
  db: SandboxDb
  close(): Promise<void>
}

/** Opens the sandbox's store and serves it; resolves once it answers /healthz. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1'
  const file = options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'sandbox.db')
  const db = await openSandboxDb({ file, plugins: options.plugins })
  const config: SandboxConfig = {
    publicUrl: options.publicUrl ?? '',
    scopePrefix: options.scopePrefix ?? DEFAULT_SCOPE_PREFIX,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  }
  const state: SandboxState = { db, config, faults: new FaultBook(), requests: new RequestLog() }
  const app = createSandboxApp(state)
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: host }, () => resolve(s))
    s.once('error', reject)
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  config.publicUrl ||= `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
  return {
    url: config.publicUrl,
    state,
    db,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      })
      await db.destroy()
    },
  }
}
