/** How one sandbox provider instance is set up. */
export interface SandboxConfig {
  /**
   * The sandbox's external origin S (the generic dialect), used in metadata, selfLink and in
   * every link to its pages (webViewLink, linkToTask), whichever origin answered.
   */
  publicUrl: string
  /**
   * The external origin G of the Google dialect (docs/sandbox.md, "Google dialect"): its issuer and
   * selfLinks.
   */
  googlePublicUrl: string
  /** The full scope identifier is this prefix followed by the short name (the generic dialect). */
  scopePrefix: string
  /** Lifetime of access tokens issued by the OAuth server and the control API. */
  accessTokenTtlSeconds: number
}

export const DEFAULT_SCOPE_PREFIX = 'https://sandbox.countersign.test/auth/'
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600
