/** Where the provider sends the browser back, for connections and sign-ins alike. */
export const CALLBACK_PATH = '/upstream/callback'

/**
 * The connector's redirect URI at the provider, which its OAuth client registers exactly: the
 * same scheme, host (`127.0.0.1` and `localhost` are two) and port as PUBLIC_URL.
 */
export const redirectUriOf = (publicUrl: string) =>
  `${publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`
