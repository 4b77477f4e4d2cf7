import type { SandboxConfig } from '../core/config.js'
import { withoutSlash, type Dialect } from '../core/dialect.js'
import { IdTokenSigner } from '../core/id-token.js'
import type { OAuthProfile } from '../core/oauth-profile.js'

/** Google's scope ids: this prefix and the short names (`openid` stays bare). */
const GOOGLE_SCOPE_PREFIX = 'https://www.googleapis.com/auth/'

/** The path of Google's authorization endpoint, where the consent form posts back. */
export const AUTHORIZE_PATH = '/o/oauth2/v2/auth'

/** Google's dialect always signs ID tokens. */
export type GoogleDialect = Dialect & { oauth: OAuthProfile & { idTokens: IdTokenSigner } }

/**
 * Google's dialect at the origin G (docs/sandbox.md, "Google dialect"): Google's scope ids whatever
 * the generic dialect's prefix, list selfLinks under `/users/@me/lists` as Google writes them, and
 * Google's OAuth rules (docs/sandbox.md, "OAuth"): ID tokens, refresh tokens only for offline
 * access, and revocation that ends every token the person holds for the client.
 */
export function googleDialect(config: SandboxConfig): GoogleDialect {
  const origin = () => withoutSlash(config.googlePublicUrl)
  return {
    name: 'google',
    get origin() {
      return origin()
    },
    scopePrefix: GOOGLE_SCOPE_PREFIX,
    taskLinks: {
      list: (list) => `${origin()}/tasks/v1/users/@me/lists/${list}`,
      task: (list, task) => `${origin()}/tasks/v1/lists/${list}/tasks/${task}`,
      get pages() {
        return config.publicUrl
      },
    },
    oauth: {
      authorizePath: AUTHORIZE_PATH,
      callbackEchoesGrant: true,
      refreshTokenOnlyOffline: true,
      revocationEnds: 'person-and-client',
      revokeTokenInQuery: true,
      userinfoNeedsOpenid: true,
      idTokens: new IdTokenSigner(),
      deadRefreshToken: 'Token has been expired or revoked.',
    },
  }
}
