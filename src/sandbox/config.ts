/** How one sandbox provider instance is set up. */
export interface SandboxConfig {
  /** The sandbox's external origin, used in metadata, selfLink and webViewLink. */
  publicUrl: string
  /** The full scope identifier is this prefix followed by the short name. */
  scopePrefix: string
  /** Lifetime of access tokens issued by the OAuth server and the control API. */
  accessTokenTtlSeconds: number
}

export const DEFAULT_SCOPE_PREFIX = 'https://sandbox.countersign.test/auth/'
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600
