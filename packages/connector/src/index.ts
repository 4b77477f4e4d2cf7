/**
 * The connector: an MCP gateway in front of the upstream provider (docs/design.md, "What
 * Countersign does" and "The connector"). `countersign start` runs it (cli/main.ts); the
 * development launcher and the tests start one in their own process with `runConnector` or
 * `startConnector`.
 */
export { runConnector, type SandboxLocation } from './cli/run.js'
export { closeOnSignal } from './cli/signals.js'
export { connectorEnvironment, type ConnectorEnvironment } from './connector/env.js'
export { startConnector, type RunningConnector } from './connector/server.js'
export { googleSandboxUpstream, sandboxUpstream } from './connector/sandbox-upstream.js'
export type { ConnectorConfig, UpstreamConfig } from './config/config.js'
