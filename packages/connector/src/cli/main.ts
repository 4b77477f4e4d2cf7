import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { connectorEnvironment } from '../connector/env.js'
import { isPostgresUrl } from '../store/engine.js'
import { openStore } from '../store/open.js'
import { KEY_FILE } from '../vault/key-file.js'
import { rotateSealedValues, type RotationReport } from '../vault/rotation.js'
import { Vault } from '../vault/vault.js'
import { runDoctor } from './doctor/doctor.js'
import { runConnector } from './run.js'
import { closeOnSignal } from './signals.js'

const USAGE = `usage: countersign <command>

commands:
  start     run the connector on PORT (default 8080), against the provider UPSTREAM_* configure,
            or else the sandbox provider at SANDBOX_PUBLIC_URL (default http://127.0.0.1:8081,
            its Google origin http://127.0.0.1:8082 under UPSTREAM_PROFILE=google); \`npm start\`
            runs the sandbox too
  doctor    check the configuration as \`start\` reads it, line by line: PUBLIC_URL and the
            redirect URI to register, the provider's client and endpoints, the vault key and data
            folder, the database, the ports; exits 0 when everything holds, else 1.
            --sign-in: then you sign in once, and each of the provider's APIs is called, to find
            one not enabled in your Cloud project, or an account that may not sign in
  rotate-keys
            re-seal every stored upstream credential under the first key of VAULT_KEY (or of
            the key file in DATA_DIR), so that the keys after it can be removed; prints a report
            and exits 1 if some credential does not open with the keys given
`

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
    const report = await rotateSealedValues(store, vault)
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
      ? 'Every upstream credential, and what each grant covers, is under the sealing key. Remove ' +
          'the old keys from VAULT_KEY once what is short-lived has expired (30 minutes after the ' +
          'replicas restarted).'
      : 'Some values are still under other keys: keep those keys in VAULT_KEY.',
  )
}

async function main(command: string | undefined) {
  switch (command) {
    case 'start': {
      const connector = await runConnector()
      closeOnSignal(() => connector.close())
      return
    }
    case 'doctor': {
      const signIn = process.argv.includes('--sign-in')
        ? { show: (url: string) => console.log(`Open this address and sign in:\n\n  ${url}\n`) }
        : undefined
      const { text, exitCode } = await runDoctor(process.env, signIn)
      console.log(text)
      process.exitCode = exitCode
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
