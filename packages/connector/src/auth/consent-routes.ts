import type { Hono } from 'hono'
import { consentPage } from '../pages/consent-page.js'
import { bindBrowser } from './browser-binding.js'
import { formFromOwnPage } from './form-post.js'
import type { InteractionParts, InteractionEnv } from './interaction-parts.js'
import { consentRequest, denied, expired, interactionOf } from './interaction-state.js'

/**
 *   GET  /consent/{uid}          the consent page (oidc-provider's interaction)
 *   POST /consent/{uid}          Allow: off to the provider's sign-in; Deny: access_denied
 */
export function consentRoutes(app: Hono<InteractionEnv>, parts: InteractionParts) {
  const { provider } = parts
  const formTokens = parts.forms.consent

  app.get('/consent/:uid', async (c) => {
    const interaction = await interactionOf(provider, c)
    if (!interaction) return expired(c)
    const request = await consentRequest(parts, interaction)
    if (!request) return expired(c)
    return consentPage(c, request)
  })

  app.post('/consent/:uid', async (c) => {
    const interaction = await interactionOf(provider, c)
    if (!interaction) return expired(c)
    const request = await consentRequest(parts, interaction)
    if (!request) return expired(c)
    const refuse = (message: string, status: 400 | 413 = 400) =>
      consentPage(c, request, { message, status })

    const form = await formFromOwnPage(c, parts.config.publicUrl)
    if (form === 'cross-site')
      return refuse('This form was sent from another site. Choose here, on this page.')
    if (form === 'unreadable')
      return refuse('The form could not be read. Choose Allow or Deny again.')
    if (form === 'too-large')
      return refuse('The form is larger than this page sends. Choose Allow or Deny again.', 413)
    if (!formTokens.check(`consent ${interaction.uid}`, form.get('csrf'))) {
      return refuse('This form is out of date or did not come from this page. Choose again.')
    }

    if (form.has('Deny')) return denied(provider, c)
    if (!form.has('Allow')) return refuse('Choose Allow or Deny.')

    const target = await parts.upstream.begin({
      interactionUid: interaction.uid,
      service: request.service,
      scopes: request.scopes,
    })
    bindBrowser(c, formTokens, parts.config.publicUrl, interaction.uid)
    return c.redirect(target.toString(), 303)
  })
}
