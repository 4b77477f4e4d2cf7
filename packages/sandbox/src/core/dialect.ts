import type { SandboxConfig } from './config.js'
import { GENERIC_OAUTH, type OAuthProfile } from './oauth-profile.js'
import type { TaskLinks } from './task-links.js'

/** The sandbox's two dialects, by name: the generic one at S and Google's at G. */
export type DialectName = 'generic' | 'google'

/**
 * What differs between the sandbox's two origins for the handlers they share: the generic
 * dialect at S (docs/design.md, "The provider's API") and Google's at G (docs/sandbox.md,
 * "Google dialect"). Both serve the same data.
 */
export interface Dialect {
  /** The name the request log records and faults match by (the control API's: wire-dialect.ts). */
  readonly name: DialectName
  /** This origin's public URL without a trailing slash: its OAuth issuer. */
  readonly origin: string
  /** A full scope identifier is this prefix and the short name (`openid` stays bare). */
  readonly scopePrefix: string
  readonly taskLinks: TaskLinks
  readonly oauth: OAuthProfile
}

/** An origin as an issuer is written: no trailing slash. */
export const withoutSlash = (url: string) => url.replace(/\/+$/, '')

/** The generic dialect, at the sandbox's own origin. Read lazily: the port is known only later. */
export function genericDialect(config: SandboxConfig): Dialect {
  return {
    name: 'generic',
    get origin() {
      return withoutSlash(config.publicUrl)
    },
    get scopePrefix() {
      return config.scopePrefix
    },
    taskLinks: {
      list: (list) => `${config.publicUrl}/tasks/v1/lists/${list}`,
      task: (list, task) => `${config.publicUrl}/tasks/v1/lists/${list}/tasks/${task}`,
      get pages() {
        return config.publicUrl
      },
    },
    oauth: GENERIC_OAUTH,
  }
}
