import { PROFILE_NAMES, type ApiName, type ProfileName } from '../../config/config.js'
import type { HttpMethod } from '../definition.js'

/**
 * A provider profile (docs/design.md, "The generic provider"): where each tool's upstream operation
 * goes at one provider, and what that provider does differently. Tool names, inputs, outputs,
 * approvals and messages are the same under every profile: only the calls behind them move. Their
 * names sit in the configuration.
 */
export { PROFILE_NAMES, type ProfileName }

/** One call at the provider, relative to its service's base URL. */
export interface Operation {
  method: HttpMethod
  /**
   * With the same `{name}` parameters as the generic provider's path, each one percent-encoded
   * segment.
   */
  path: string
  /** The provider's own name for the call, for a reader: `tasks.tasklists.list`. */
  reference?: string
  /** The API whose base URL it is relative to, where not its service's own. */
  api?: ApiName
}

/** The settings a profile gives when the operator leaves them unset, by environment variable. */
export type UpstreamDefaults = Partial<Record<UpstreamSetting, string>>

export type UpstreamSetting =
  | 'UPSTREAM_AUTHORIZATION_URL'
  | 'UPSTREAM_TOKEN_URL'
  | 'UPSTREAM_REVOCATION_URL'
  | 'UPSTREAM_USERINFO_URL'
  | 'UPSTREAM_SCOPE_PREFIX'
  | 'UPSTREAM_TASKS_URL'
  | 'UPSTREAM_SEARCH_URL'
  | 'UPSTREAM_ANALYTICS_URL'
  | 'UPSTREAM_ANALYTICS_ADMIN_URL'
  | 'UPSTREAM_NAME'

export interface ProviderProfile {
  name: ProfileName
  /** Every tool's operation, and the reads behind approvals (`get_task_list`), by name. */
  operations: Readonly<Record<string, Operation>>
  /**
   * Whether the provider refuses a change whose If-Match is stale. Where it does not, the
   * connector reads the resource again just before an approved change (src/mcp/seen-version.ts).
   */
  enforcesIfMatch: boolean
  /**
   * What revoking one token ends at the provider: its own grant, or every token the person holds
   * for the connector's client (Google). Then a credential is revoked only with the person's last.
   */
  revocation: 'grant' | 'person'
  /** Query parameters every call carries (Google's system parameters: compact answers). */
  systemQuery?: Readonly<Record<string, string>>
  /**
   * The hosts of the provider's console (Google's), where its answer to a setup problem may send
   * the operator: a link in an answer reaches the model, the person and the log only over https
   * to one of these (src/upstream/api/errors.ts). Without them, no link from an answer is shown.
   */
  consoleHosts?: readonly string[]
  /**
   * What the provider does to an app it is still testing (Google's Testing mode), which shows at
   * run time only as answers that say nothing of it: the connector then says what probably
   * happened (src/upstream/refresh.ts, src/upstream/callback.ts).
   */
  testingMode?: TestingMode
  defaults: UpstreamDefaults
}

/** An app in Testing mode: only its test users may connect, and their connections run out. */
export interface TestingMode {
  /** The provider ends a connection's refresh token this many days after it was made. */
  tokenDays: number
}

/** The operation called `name`: a profile that lacks one cannot serve the tool, so it is a fault. */
export function operationOf(profile: ProviderProfile, name: string): Operation {
  const operation = profile.operations[name]
  if (!operation)
    throw new Error(`The ${profile.name} provider profile has no operation for "${name}".`)
  return operation
}
