import type { UpstreamConfig } from '../config/config.js'
import { SANDBOX_LOCATION_VARIABLES } from '../config/variables.js'
import { GOOGLE_PROFILE } from '../services/profiles/google.js'

/**
 * The upstream settings that point the connector at the built-in sandbox provider: the generic
 * dialect, or its Google dialect under the Google profile (docs/design.md, "The provider's API" and
 * "The sandbox's Google dialect"). Used by the CLI when no real provider is configured, and by the
 * tests and benchmarks.
 */

/** The sandbox's default scope prefix: the two agree by configuration, not by shared code. */
export const SANDBOX_SCOPE_PREFIX: string = SANDBOX_LOCATION_VARIABLES.SANDBOX_SCOPE_PREFIX.fallback

const SANDBOX_NAME = 'the sandbox provider'
const SANDBOX_CLIENT = { clientId: 'countersign', clientSecret: 'sandbox-secret-not-checked' }

/** The upstream settings that point at the built-in sandbox provider at `sandboxUrl`. */
export function sandboxUpstream(
  sandboxUrl: string,
  scopePrefix = SANDBOX_SCOPE_PREFIX,
): UpstreamConfig {
  return {
    profile: 'generic',
    name: SANDBOX_NAME,
    authorizationUrl: `${sandboxUrl}/oauth/authorize`,
    tokenUrl: `${sandboxUrl}/oauth/token`,
    revocationUrl: `${sandboxUrl}/oauth/revoke`,
    userinfoUrl: `${sandboxUrl}/oauth/userinfo`,
    ...SANDBOX_CLIENT,
    scopePrefix,
    apiBase: {
      tasks: `${sandboxUrl}/tasks/v1`,
      search: `${sandboxUrl}/search/v1`,
      analytics: `${sandboxUrl}/analytics/v1`,
      analyticsAdmin: `${sandboxUrl}/analytics/v1`,
    },
  }
}

/**
 * The Google profile pointed at the sandbox's Google dialect at `googleUrl` (docs/sandbox.md,
 * "Google dialect"): every Google default with its origin swapped for the sandbox's, since that one
 * origin serves each Google host's paths at its root (`/o/oauth2/v2/auth`, `/token`, `/tasks/v1`,
 * `/v1beta`, ...).
 */
export function googleSandboxUpstream(googleUrl: string): UpstreamConfig {
  const at = (setting: keyof typeof GOOGLE_PROFILE.defaults) => {
    const google = new URL(GOOGLE_PROFILE.defaults[setting]!)
    return `${googleUrl}${google.pathname.replace(/\/+$/, '')}`
  }
  return {
    profile: 'google',
    name: SANDBOX_NAME,
    authorizationUrl: at('UPSTREAM_AUTHORIZATION_URL'),
    tokenUrl: at('UPSTREAM_TOKEN_URL'),
    revocationUrl: at('UPSTREAM_REVOCATION_URL'),
    userinfoUrl: at('UPSTREAM_USERINFO_URL'),
    ...SANDBOX_CLIENT,
    scopePrefix: GOOGLE_PROFILE.defaults.UPSTREAM_SCOPE_PREFIX!,
    apiBase: {
      tasks: at('UPSTREAM_TASKS_URL'),
      search: at('UPSTREAM_SEARCH_URL'),
      analytics: at('UPSTREAM_ANALYTICS_URL'),
      analyticsAdmin: at('UPSTREAM_ANALYTICS_ADMIN_URL'),
    },
  }
}
