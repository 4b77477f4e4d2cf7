import type { Context, Hono } from 'hono'
import { problemPage } from '../pages/problem-page.js'
import {
  UpstreamAuthorizationError,
  UpstreamUnavailableError,
  type CompletedAuthorization,
} from '../upstream/index.js'
import { boundInteractions, CALLBACK_PATH, forgetBinding } from './browser-binding.js'
import type { InteractionEnv, InteractionParts, SignInReturn } from './interaction-parts.js'
import { choicePath, finish, START_AGAIN } from './interaction-state.js'
import { serviceOfResource } from './resources.js'

/**
 *   GET  /upstream/callback      back from the provider: keep the credential, then the choice
 *
 * A sign-in to the connector's own pages comes back here too, and goes to `onSignIn`.
 */
export function callbackRoutes(
  app: Hono<InteractionEnv>,
  parts: InteractionParts,
  onSignIn?: SignInReturn,
) {
  app.get(CALLBACK_PATH, async (c) => {
    const callbackUrl = new URL(c.req.url)
    const kind = await parts.upstream.kindOf(callbackUrl)
    if (kind === 'sign-in') {
      if (onSignIn) return onSignIn(c, callbackUrl)
      return problemPage(
        c,
        'Sign-in not available',
        'This connector has no page to sign in to.',
        404,
      )
    }

    const bound = boundInteractions(c, parts.forms.consent)
    let done: CompletedAuthorization
    try {
      done = await parts.upstream.complete(callbackUrl)
    } catch (error) {
      return notConnected(parts, c, error, bound)
    }
    return toTheChoice(parts, c, done, bound)
  })
}

/** The provider said no, or could not be reached: nothing was connected. */
async function notConnected(parts: InteractionParts, c: Context, error: unknown, bound: string[]) {
  if (error instanceof UpstreamAuthorizationError) {
    // Where this browser has exactly one authorization under way, its client is told.
    const only = bound.length === 1 ? await parts.provider.Interaction.find(bound[0]!) : undefined
    if (only && !only.result) {
      await finish(only, {
        error: 'access_denied',
        error_description: 'The person did not complete the authorization at the provider.',
      })
      forgetBinding(c, parts.config.publicUrl, only.uid)
    }
    return problemPage(
      c,
      'Not connected',
      error.message,
      400,
      only && {
        href: only.returnTo,
        label: 'Return to the app',
      },
    )
  }
  if (error instanceof UpstreamUnavailableError) {
    return problemPage(
      c,
      'The provider could not be reached',
      `Nothing was connected. ${START_AGAIN}`,
      502,
    )
  }
  throw error
}

/**
 * Signed in at the provider, in the browser that pressed Allow: the credential waits while the
 * person chooses what the grant covers. Otherwise it is released, and nothing is connected.
 */
async function toTheChoice(
  parts: InteractionParts,
  c: Context,
  done: CompletedAuthorization,
  bound: string[],
) {
  const abandon = async (title: string, message: string, status: 403 | 410) => {
    await parts.grants.releaseCredential(done.credentialId, 'authorization abandoned')
    return problemPage(c, title, message, status)
  }
  if (!bound.includes(done.interactionUid)) {
    return abandon(
      'Finish in the browser where you started',
      `This sign-in was started in another browser, so nothing was connected. ${START_AGAIN}`,
      403,
    )
  }
  const interaction = await parts.provider.Interaction.find(done.interactionUid)
  const params = interaction?.params ?? {}
  const resource = typeof params.resource === 'string' ? params.resource : undefined
  const clientId = typeof params.client_id === 'string' ? params.client_id : undefined
  if (
    !interaction ||
    interaction.result ||
    !resource ||
    !clientId ||
    serviceOfResource(parts.config.publicUrl, resource) !== done.service
  ) {
    return abandon('This page has expired', `The authorization took too long. ${START_AGAIN}`, 410)
  }

  await parts.choices.begin({
    interactionUid: interaction.uid,
    credentialId: done.credentialId,
    account: done.subject,
    service: done.service,
    scopes: done.scopes,
  })
  forgetBinding(c, parts.config.publicUrl, interaction.uid)
  return c.redirect(choicePath(interaction.uid), 303)
}
