import { providerNameOf, type UpstreamConfig } from '../../config/config.js'
import type { ProviderRefusal } from '../../upstream/index.js'
import { OAuthClient, redirectUriOf, UpstreamUnavailableError } from '../../upstream/index.js'
import { fix, note, ok, type Finding } from './findings.js'

/** How long the token endpoint may take to answer the doctor. */
const DEADLINE_MS = 5_000

/** A Google OAuth client id: the project number, a dash, a name, then Google's domain. */
const GOOGLE_CLIENT_ID = /^\d+-[0-9a-z]+\.apps\.googleusercontent\.com$/

const CLIENTS = 'Google Auth Platform → Clients'

/** The client id's and secret's form, as far as the profile knows one. */
export function clientFormFindings(upstream: UpstreamConfig): Finding[] {
  if (upstream.profile !== 'google')
    return [
      upstream.clientSecret
        ? ok(`UPSTREAM_CLIENT_ID ${upstream.clientId}, with a secret`)
        : note(
            `UPSTREAM_CLIENT_ID ${upstream.clientId}, without a secret: the connector is a public client of the provider`,
          ),
    ]
  // The secret's presence is the configuration's to check: Google's profile requires one.
  return [
    GOOGLE_CLIENT_ID.test(upstream.clientId)
      ? ok(`UPSTREAM_CLIENT_ID has the form of a Google OAuth client id`)
      : fix(
          `UPSTREAM_CLIENT_ID does not look like a Google OAuth client id (digits-letters.apps.googleusercontent.com): copy the Client ID of your Web application client from ${CLIENTS}`,
        ),
  ]
}

/**
 * Whether the provider's token endpoint knows the client and its secret, with no person: a code
 * that cannot exist is `invalid_grant` for a good client and `invalid_client` for a bad one.
 */
export async function clientAcceptedFinding(
  upstream: UpstreamConfig,
  publicUrl: string,
): Promise<Finding> {
  const provider = providerNameOf(upstream)
  const client = new OAuthClient({
    config: upstream,
    redirectUri: redirectUriOf(publicUrl),
    deadlineMs: DEADLINE_MS,
  })
  let refusal: ProviderRefusal
  try {
    refusal = await client.presentImpossibleCode()
  } catch (error) {
    if (error instanceof UpstreamUnavailableError)
      return fix(
        `${provider}'s token endpoint ${upstream.tokenUrl} did not answer: ${error.message}`,
        'Check this machine can reach it (DNS, firewall, an outbound proxy), then run the doctor again.',
      )
    throw error
  }
  if (refusal.error === 'invalid_grant')
    return ok(`${provider}'s token endpoint accepts the client id and secret`)
  if (refusal.error === 'invalid_client')
    return upstream.profile === 'google' && /not found/i.test(refusal.description ?? '')
      ? fix(
          `Google does not know the client id: copy the Client ID again from ${CLIENTS}, in the Cloud project you set up`,
          `Google said: ${refusal.description}`,
        )
      : fix(
          `${provider} refuses the client secret for this client id: copy the secret again${upstream.profile === 'google' ? ` (or add a new one) in ${CLIENTS} → your client` : ''}`,
          ...(refusal.description ? [`${provider} said: ${refusal.description}`] : []),
        )
  return fix(
    `${provider}'s token endpoint answered ${refusal.status} ${refusal.error} to a code that cannot exist, where invalid_grant was expected: check UPSTREAM_TOKEN_URL`,
    ...(refusal.description ? [`${provider} said: ${refusal.description}`] : []),
  )
}
