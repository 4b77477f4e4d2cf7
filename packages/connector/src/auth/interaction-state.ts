import type { Context } from 'hono'
import type { Interaction, InteractionResults, Provider } from 'oidc-provider'
import type { ConsentRequest } from '../pages/consent-page.js'
import { problemPage } from '../pages/problem-page.js'
import { SERVICES } from '../services/catalog.js'
import { isDocumentClientId } from './clients.js'
import type { InteractionParts, InteractionEnv } from './interaction-parts.js'
import { serviceOfResource } from './resources.js'

/**
 * An authorization under way, as the person's pages meet it: oidc-provider's interaction this
 * browser is in, what its client asks for, and how it ends for the client (denied, or finished).
 */

export const START_AGAIN = 'Go back to your assistant and connect the service again.'

/** The page where the person chooses what a new grant covers: under the consent page's path. */
export const choicePath = (uid: string) => `/consent/${uid}/choose`

/** The interaction this browser is in, if it is the one the URL names. */
export async function interactionOf(
  provider: Provider,
  c: Context<InteractionEnv>,
): Promise<Interaction | undefined> {
  try {
    const interaction = await provider.interactionDetails(c.env.incoming, c.env.outgoing)
    return interaction.uid === c.req.param('uid') ? interaction : undefined
  } catch {
    return undefined
  }
}

export const expired = (c: Context) =>
  problemPage(
    c,
    'This page has expired',
    `This authorization is no longer under way, or it was started in another browser. ${START_AGAIN}`,
    410,
  )

/** What the client asks for, as the consent page shows it; undefined if it names too little. */
export async function consentRequest(
  parts: Pick<InteractionParts, 'config' | 'provider' | 'forms'>,
  interaction: Interaction,
): Promise<ConsentRequest | undefined> {
  const params = interaction.params
  const service = serviceOfResource(parts.config.publicUrl, params.resource)
  const clientId = typeof params.client_id === 'string' ? params.client_id : undefined
  const redirectUri =
    typeof params.redirect_uri === 'string' ? URL.parse(params.redirect_uri) : null
  if (!service || !clientId || !redirectUri) return undefined
  const client = await parts.provider.Client.find(clientId)
  if (!client) return undefined
  const known = SERVICES[service].scopes.map((scope) => scope.name)
  const asked = typeof params.scope === 'string' ? params.scope.split(' ') : []
  return {
    uid: interaction.uid,
    clientName: client.clientName || clientId,
    clientId,
    ...(isDocumentClientId(clientId) && { publishedBy: new URL(clientId).host }),
    redirectHost: redirectUri.host,
    service,
    scopes: known.filter((name) => asked.includes(name)),
    csrf: parts.forms.consent.issue(`consent ${interaction.uid}`),
  }
}

/** The person said no: the client is told access_denied. */
export async function denied(provider: Provider, c: Context<InteractionEnv>) {
  const returnTo = await provider.interactionResult(
    c.env.incoming,
    c.env.outgoing,
    { error: 'access_denied', error_description: 'The person denied access.' },
    { mergeWithLastSubmission: false },
  )
  return c.redirect(returnTo, 303)
}

/** oidc-provider's interactionResult, for a request that does not carry the interaction cookie. */
export async function finish(interaction: Interaction, result: InteractionResults) {
  interaction.result = result
  await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1))
}
