import type { UpstreamConfig } from '../config/config.js'
import {
  connectorEnvironment,
  sandboxGoogleUrlOf,
  sandboxScopePrefixOf,
  sandboxUrlOf,
  type ConnectorEnvironment,
} from '../connector/env.js'
import { googleSandboxUpstream, sandboxUpstream } from '../connector/sandbox-upstream.js'
import { startConnector, type RunningConnector } from '../connector/server.js'
import { SERVICE_NAMES } from '../services/catalog.js'

/** Where a sandbox provider is (the development launcher knows it; else the environment says). */
export interface SandboxLocation {
  url: string
  googleUrl: string
  scopePrefix?: string
}

/**
 * The connector as `countersign start` runs it: against the provider UPSTREAM_* configure, or
 * else the sandbox provider at `sandbox` (by default where the environment says it is), in the
 * dialect of UPSTREAM_PROFILE; its addresses printed. It never starts a sandbox itself.
 */
export async function runConnector(
  env: ConnectorEnvironment = connectorEnvironment(),
  sandbox?: SandboxLocation,
): Promise<RunningConnector> {
  const upstream = env.upstream ?? sandboxAsUpstream(env, sandbox)
  if (!env.upstream && !sandbox)
    console.log(`using the sandbox provider at ${new URL(upstream.tokenUrl).origin}`)
  const connector = await startConnector({ ...env.config, upstream })
  console.log(`connector: ${connector.url} (provider profile: ${env.profile})`)
  for (const service of SERVICE_NAMES) {
    console.log(`  ${`${service} MCP:`.padEnd(15)}${connector.url}/${service}/mcp`)
  }
  return connector
}

/**
 * The sandbox as the connector's provider, in the profile's dialect: the generic one at its origin,
 * or Google's at its Google origin (`UPSTREAM_PROFILE=google` with no client of its own).
 */
function sandboxAsUpstream(env: ConnectorEnvironment, sandbox?: SandboxLocation): UpstreamConfig {
  if (env.profile === 'google')
    return googleSandboxUpstream(sandbox?.googleUrl ?? sandboxGoogleUrlOf())
  return sandboxUpstream(
    sandbox?.url ?? sandboxUrlOf(),
    sandbox?.scopePrefix ?? sandboxScopePrefixOf(),
  )
}
