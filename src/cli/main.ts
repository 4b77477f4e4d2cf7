import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { googleSandboxUpstream, sandboxUpstream } from '../connector/sandbox-upstream.js'
import { type UpstreamConfig } from '../config/config.js'
import {
  connectorEnvironment,
  sandboxGoogleUrlOf,
  sandboxUrlOf,
  type ConnectorEnvironment,
} from '../connector/env.js'
import { startConnector, type RunningConnector } from '../connector/server.js'
import { startSandbox, type RunningSandbox } from '../sandbox/server.js'
import { SERVICE_NAMES } from '../services/catalog.js'
import { openStore } from '../store/open.js'
import { isPostgresUrl } from '../store/postgres.js'
import { KEY_FILE } from '../vault/key-file.js'
import { rotateCredentials, type RotationReport } from '../vault/rotation.js'
import { Vault } from '../vault/vault.js'
import { dataDirFromEnv, portFromEnv } from './env.js'

const USAGE = `usage: countersign <command>

commands:
  start     run everything: the sandbox provider (unless SANDBOX=0 or UPSTREAM_* are set) and
            the connector on PORT (default 8080)
  sandbox   run the sandbox provider alone on SANDBOX_PORT (default 8081)
  rotate-keys
            re-seal every stored upstream credential under the first key of VAULT_KEY (or of
            the key file in DATA_DIR), so that the keys after it can be removed; prints a report
            and exits 1 if some credential does not open with the keys given
`

async function runSandbox(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: portFromEnv('SANDBOX_PORT', 8081),
    googlePort: portFromEnv('SANDBOX_GOOGLE_PORT', 8082),
    // A development provider with an unauthenticated control API: loopback unless told otherwise.
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    dataDir: join(dataDirFromEnv(), 'sandbox'),
    publicUrl: process.env.SANDBOX_PUBLIC_URL || undefined,
    googlePublicUrl: process.env.SANDBOX_GOOGLE_PUBLIC_URL || undefined,
    scopePrefix: process.env.SANDBOX_SCOPE_PREFIX || undefined,
  })
  console.log(`sandbox provider: ${sandbox.url}`)
  console.log(`  task API:      ${sandbox.url}/tasks/v1`)
  console.log(`  web view:      ${sandbox.url}/web/tasks`)
  console.log(`  connections:   ${sandbox.url}/account/connections`)
  console.log(`  Google APIs:   ${sandbox.googleUrl} (Google's paths and OAuth, same data)`)
  return sandbox
}

/**
 * The built-in sandbox as the connector's provider, in the profile's dialect: the seed's at its
 * origin, or Google's at its Google origin (`UPSTREAM_PROFILE=google` with no client of its own).
 */
function sandboxAsUpstream(env: ConnectorEnvironment, sandbox?: RunningSandbox): UpstreamConfig {
  if (env.profile === 'google')
    return googleSandboxUpstream(sandbox?.googleUrl ?? sandboxGoogleUrlOf())
  return sandboxUpstream(
    sandbox?.url ?? sandboxUrlOf(),
    sandbox?.state.config.scopePrefix ?? process.env.SANDBOX_SCOPE_PREFIX ?? undefined,
  )
}

/** The connector, against the real provider if UPSTREAM_* say so, else the sandbox. */
async function runEverything(): Promise<{ connector: RunningConnector; sandbox?: RunningSandbox }> {
  const env = connectorEnvironment()
  const sandbox = env.startSandbox ? await runSandbox() : undefined
  const upstream = env.upstream ?? sandboxAsUpstream(env, sandbox)
  if (!env.upstream && !sandbox)
    console.log(`using the sandbox provider at ${new URL(upstream.tokenUrl).origin} (SANDBOX=0)`)
  try {
    const connector = await startConnector({ ...env.config, upstream })
    console.log(`connector: ${connector.url} (provider profile: ${env.profile})`)
    for (const service of SERVICE_NAMES) {
      console.log(`  ${`${service} MCP:`.padEnd(15)}${connector.url}/${service}/mcp`)
    }
    return { connector, sandbox }
  } catch (error) {
    await sandbox?.close()
    throw error
  }
}

/**
 * Key rotation (docs/operations.md): put the new key first in VAULT_KEY, the old ones after it,
 * restart the replicas, run this, then remove the old keys. The connector may keep running.
 */
async function rotateKeys(): Promise<number> {
  const { config } = connectorEnvironment()
  const fromEnv = Boolean(config.vaultKey?.trim())
  if (!fromEnv && config.databaseUrl && isPostgresUrl(config.databaseUrl)) {
    console.error(
      'rotate-keys: set VAULT_KEY (the new key first, then the old ones), as for start.',
    )
    return 2
  }
  if (!fromEnv && !existsSync(join(config.dataDir, KEY_FILE))) {
    console.error(
      `rotate-keys: no keys to rotate with: set VAULT_KEY to the new key followed by the old ` +
        `ones (comma-separated), or keep them in that order in ${join(config.dataDir, KEY_FILE)}.`,
    )
    return 2
  }
  const { vault } = Vault.fromEnvironment({ vaultKey: config.vaultKey, dataDir: config.dataDir })
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    const report = await rotateCredentials(store, vault)
    printRotation(report, vault.keyId)
    return report.failed.length === 0 ? 0 : 1
  } finally {
    await store.close()
  }
}

/** The report as docs/operations.md reads it: resealed, failed (by id), remaining. */
function printRotation(report: RotationReport, keyId: string) {
  console.log(`sealing key: ${keyId}`)
  console.log(`resealed: ${report.resealed}`)
  console.log(`failed: ${report.failed.length}`)
  for (const failed of report.failed) {
    console.log(`  ${failed.id} (under key ${failed.keyId}): ${failed.reason}`)
  }
  console.log(`remaining: ${report.remaining}`)
  console.log(
    report.remaining === 0
      ? 'Every upstream credential is under the sealing key. Remove the old keys from VAULT_KEY ' +
          'once what is short-lived has expired (30 minutes after the replicas restarted).'
      : 'Some credentials are still under other keys: keep those keys in VAULT_KEY.',
  )
}

function closeOnSignal(close: () => Promise<void>) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0))
    })
  }
}

async function main(command: string | undefined) {
  switch (command) {
    case 'start': {
      const { connector, sandbox } = await runEverything()
      closeOnSignal(async () => {
        await connector.close()
        await sandbox?.close()
      })
      return
    }
    case 'sandbox': {
      const sandbox = await runSandbox()
      closeOnSignal(() => sandbox.close())
      return
    }
    case 'rotate-keys':
      process.exitCode = await rotateKeys()
      return
    default:
      process.stderr.write(USAGE)
      process.exitCode = command ? 2 : 0
  }
}

main(process.argv[2]).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
