import type { Environment } from '@countersign/environment'
import { providerNameOf } from '../../config/config.js'
import { localOrigin } from '../../config/loopback.js'
import { connectorEnvironment, type ConnectorEnvironment } from '../../connector/env.js'
import { clientAcceptedFinding, clientFormFindings } from './client.js'
import { databaseFinding } from './database.js'
import { endpointFindings } from './endpoints.js'
import { fix, note, ok, report, type Finding } from './findings.js'
import { portFindings } from './ports.js'
import { publicUrlFindings } from './public-url.js'
import { signInFindings, type SignInOptions } from './sign-in.js'
import { dataFolderFinding, vaultKeyFinding } from './storage.js'

/**
 * `countersign doctor` (docs/google.md, "Check the setup"): the configuration read as
 * `countersign start` reads it, then each thing the connector needs, checked in the order an
 * operator fixes them: the public URL and redirect URI, the provider's client and endpoints, the
 * keys and data folder, the database, the ports. It changes nothing and needs no person.
 */
export async function runDoctor(env: Environment = process.env, signIn?: SignInOptions) {
  let read: ConnectorEnvironment
  try {
    read = connectorEnvironment(env)
  } catch (error) {
    return report([fix(`the configuration: ${(error as Error).message}`)])
  }
  const { config } = read
  const publicUrl = config.publicUrl || localOrigin(config.host, config.port)
  const findings: Finding[] = []
  for (const check of checksOf(read, publicUrl)) findings.push(...(await guarded(check)))
  if (read.upstream?.profile === 'google' && !signIn)
    findings.push(
      note(
        'Whether the four APIs are enabled, and your account may sign in, Google says only to someone signed in: `countersign doctor --sign-in` checks them',
      ),
    )
  if (signIn) findings.push(...(await signInChecks(read, publicUrl, findings, signIn)))
  return report(findings)
}

/** The sign-in, once everything else holds (it listens on PORT, and needs the client). */
async function signInChecks(
  { config, upstream }: ConnectorEnvironment,
  publicUrl: string,
  before: Finding[],
  options: SignInOptions,
): Promise<Finding[]> {
  if (!upstream) return [note('the sandbox provider: there is nothing to sign in to')]
  if (before.some((finding) => finding.verdict === 'fix'))
    return [note('no sign-in until the rest holds: fix the above, then run the doctor again')]
  return guarded(() => signInFindings(upstream, { ...config, publicUrl }, options))
}

type Check = () => Finding | Finding[] | Promise<Finding | Finding[]>

/** `publicUrl`: PUBLIC_URL, or the origin the connector would take from HOST and PORT. */
function checksOf({ config, profile, upstream }: ConnectorEnvironment, publicUrl: string): Check[] {
  const provider: Check[] = upstream
    ? [
        () => ok(`the provider: ${providerNameOf(upstream)} (UPSTREAM_PROFILE=${profile})`),
        () => clientFormFindings(upstream),
        () => clientAcceptedFinding(upstream, publicUrl),
        () => endpointFindings(upstream),
      ]
    : [
        () =>
          note(
            `no UPSTREAM_* is set: the connector uses the built-in sandbox provider (\`npm start\` runs both)`,
            'To connect a real Google account, follow docs/google.md.',
          ),
      ]
  return [
    () => publicUrlFindings(publicUrl, upstream !== undefined),
    ...provider,
    () => dataFolderFinding(config.dataDir),
    () => vaultKeyFinding(config.vaultKey, config.dataDir, config.databaseUrl),
    () => databaseFinding(config.databaseUrl, config.dataDir),
    () => portFindings(config),
  ]
}

/** A check that throws has found something to fix: its message says what. */
async function guarded(check: Check): Promise<Finding[]> {
  try {
    const found = await check()
    return Array.isArray(found) ? found : [found]
  } catch (error) {
    return [fix(error instanceof Error ? error.message : String(error))]
  }
}
