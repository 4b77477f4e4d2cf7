import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Interaction, InteractionResults, Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import {
  UpstreamAuthorizationError,
  UpstreamUnavailableError,
  type CompletedAuthorization,
  type CompletedSignIn,
} from '../upstream/index.js'
import { readChoice, type ChoiceForm } from './choice-page.js'
import type { GrantChoices, PendingChoice } from './choices.js'
import {
  consentPage,
  coverageChoicePage,
  problemPage,
  type ConsentRequest,
} from './consent-page.js'
import type { Coverage, CoverageSeal } from './coverage.js'
import { formBound, formFromOwnPage, MAX_FORM_BYTES } from './form-post.js'
import type { Grants } from './grants.js'
import type { Offer, OfferRead, Offers } from './offer.js'
import type { FormTokens } from './keys.js'
import { resourceOf, serviceOfResource } from './resources.js'

/**
 * The person's part of an authorization, between oidc-provider's authorization endpoint and the
 * client's redirect URI:
 *
 *   GET  /consent/{uid}          the consent page (oidc-provider's interaction)
 *   POST /consent/{uid}          Allow: off to the provider's sign-in; Deny: access_denied
 *   GET  /upstream/callback      back from the provider: keep the credential, then the choice
 *   GET  /consent/{uid}/choose   which lists, sites or properties the grant covers (read live)
 *   POST /consent/{uid}/choose   Allow: make the grant, finish; Deny: release it, access_denied
 *
 * The consent form is bound to its interaction three ways: oidc-provider's interaction cookie
 * (only the browser that started it has it), a CSRF token (a MAC of the uid) in a hidden field,
 * and a refusal of cross-site posts. The return from the provider is bound to the same browser by
 * a cookie set when the person pressed Allow. The choice that follows is bound as the consent
 * form is (the interaction cookie covers its path), and the credential waits for it in
 * choices.ts; the form may name only what the provider offered the person, and is read no
 * further than that could take (form-post.ts, formBound).
 */

export type InteractionEnv = { Bindings: HttpBindings }

/** What the routes need of the upstream client. */
export interface UpstreamAuthorizer {
  begin(request: { interactionUid: string; service: ServiceName; scopes: string[] }): Promise<URL>
  complete(callbackUrl: URL): Promise<CompletedAuthorization>
  kindOf(callbackUrl: URL): Promise<'authorization' | 'sign-in' | undefined>
  completeSignIn(callbackUrl: URL): Promise<CompletedSignIn>
}

export interface InteractionDeps {
  publicUrl: string
  provider: Provider
  upstream: UpstreamAuthorizer
  grants: Grants
  /** The credential of each authorization whose coverage the person is choosing. */
  choices: GrantChoices
  /** The person's lists, sites or properties, read live for the choice. */
  offers: Offers
  /** Seals what a new grant covers. */
  coverage: CoverageSeal
  /** CSRF tokens of the consent form, and the callback's browser binding. */
  formTokens: FormTokens
  log: Logger
  /**
   * A sign-in to the connector's own pages came back (upstream.kindOf says 'sign-in'). The pages
   * that use it register this; without it such a callback is refused.
   */
  onSignIn?: (c: Context<InteractionEnv>, callbackUrl: URL) => Promise<Response>
}

/** How long the browser binding lasts: the provider's state is valid for 10 minutes. */
const BINDING_MAX_AGE_SECONDS = 15 * 60
const BINDING_COOKIE_PREFIX = 'countersign_authorization_'
/** Where the provider sends the browser back, for connections and sign-ins alike. */
export const CALLBACK_PATH = '/upstream/callback'
/** The page where the person chooses what a new grant covers: under the consent page's path. */
const choicePath = (uid: string) => `/consent/${uid}/choose`

const START_AGAIN = 'Go back to your assistant and connect the service again.'

export function interactionRoutes(deps: InteractionDeps) {
  const { provider, formTokens, log } = deps
  const app = new Hono<InteractionEnv>()
  const secure = deps.publicUrl.startsWith('https:')

  /** The interaction this browser is in, if it is the one the URL names. */
  async function interactionOf(c: Context<InteractionEnv>): Promise<Interaction | undefined> {
    try {
      const interaction = await provider.interactionDetails(c.env.incoming, c.env.outgoing)
      return interaction.uid === c.req.param('uid') ? interaction : undefined
    } catch {
      return undefined
    }
  }

  const expired = (c: Context<InteractionEnv>) =>
    problemPage(
      c,
      'This page has expired',
      `This authorization is no longer under way, or it was started in another browser. ${START_AGAIN}`,
      410,
    )

  async function consentRequest(interaction: Interaction): Promise<ConsentRequest | undefined> {
    const params = interaction.params
    const service = serviceOfResource(deps.publicUrl, params.resource)
    const clientId = typeof params.client_id === 'string' ? params.client_id : undefined
    const redirectUri =
      typeof params.redirect_uri === 'string' ? URL.parse(params.redirect_uri) : null
    if (!service || !clientId || !redirectUri) return undefined
    const client = await provider.Client.find(clientId)
    if (!client) return undefined
    const known = SERVICES[service].scopes.map((scope) => scope.name)
    const asked = typeof params.scope === 'string' ? params.scope.split(' ') : []
    return {
      uid: interaction.uid,
      clientName: client.clientName || clientId,
      clientId,
      redirectHost: redirectUri.host,
      service,
      scopes: known.filter((name) => asked.includes(name)),
      csrf: formTokens.issue(`consent ${interaction.uid}`),
    }
  }

  /** The person said no: the client is told access_denied. */
  async function denied(c: Context<InteractionEnv>) {
    const returnTo = await provider.interactionResult(
      c.env.incoming,
      c.env.outgoing,
      { error: 'access_denied', error_description: 'The person denied access.' },
      { mergeWithLastSubmission: false },
    )
    return c.redirect(returnTo, 303)
  }

  app.get('/consent/:uid', async (c) => {
    const interaction = await interactionOf(c)
    if (!interaction) return expired(c)
    const request = await consentRequest(interaction)
    if (!request) return expired(c)
    return consentPage(c, request)
  })

  app.post('/consent/:uid', async (c) => {
    const interaction = await interactionOf(c)
    if (!interaction) return expired(c)
    const request = await consentRequest(interaction)
    if (!request) return expired(c)
    const refuse = (message: string, status: 400 | 413 = 400) =>
      consentPage(c, request, { message, status })

    const form = await formFromOwnPage(c, deps.publicUrl)
    if (form === 'cross-site')
      return refuse('This form was sent from another site. Choose here, on this page.')
    if (form === 'unreadable')
      return refuse('The form could not be read. Choose Allow or Deny again.')
    if (form === 'too-large')
      return refuse('The form is larger than this page sends. Choose Allow or Deny again.', 413)
    if (!formTokens.check(`consent ${interaction.uid}`, form.get('csrf'))) {
      return refuse('This form is out of date or did not come from this page. Choose again.')
    }

    if (form.has('Deny')) return denied(c)
    if (!form.has('Allow')) return refuse('Choose Allow or Deny.')

    const target = await deps.upstream.begin({
      interactionUid: interaction.uid,
      service: request.service,
      scopes: request.scopes,
    })
    setCookie(
      c,
      BINDING_COOKIE_PREFIX + interaction.uid,
      formTokens.issue(`browser ${interaction.uid}`),
      {
        path: CALLBACK_PATH,
        httpOnly: true,
        secure,
        sameSite: 'Lax',
        maxAge: BINDING_MAX_AGE_SECONDS,
      },
    )
    return c.redirect(target.toString(), 303)
  })

  app.get(CALLBACK_PATH, async (c) => {
    const callbackUrl = new URL(c.req.url)
    const kind = await deps.upstream.kindOf(callbackUrl)
    if (kind === 'sign-in') {
      if (deps.onSignIn) return deps.onSignIn(c, callbackUrl)
      return problemPage(
        c,
        'Sign-in not available',
        'This connector has no page to sign in to.',
        404,
      )
    }

    const bound = boundInteractions(c)
    let done: CompletedAuthorization
    try {
      done = await deps.upstream.complete(callbackUrl)
    } catch (error) {
      if (error instanceof UpstreamAuthorizationError) {
        // Where this browser has exactly one authorization under way, its client is told.
        const only = bound.length === 1 ? await provider.Interaction.find(bound[0]!) : undefined
        if (only && !only.result) {
          await finish(only, {
            error: 'access_denied',
            error_description: 'The person did not complete the authorization at the provider.',
          })
          forget(c, only.uid)
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

    const abandon = async (title: string, message: string, status: 403 | 410) => {
      await deps.grants.releaseCredential(done.credentialId, 'authorization abandoned')
      return problemPage(c, title, message, status)
    }
    if (!bound.includes(done.interactionUid)) {
      return abandon(
        'Finish in the browser where you started',
        `This sign-in was started in another browser, so nothing was connected. ${START_AGAIN}`,
        403,
      )
    }
    const interaction = await provider.Interaction.find(done.interactionUid)
    const params = interaction?.params ?? {}
    const resource = typeof params.resource === 'string' ? params.resource : undefined
    const clientId = typeof params.client_id === 'string' ? params.client_id : undefined
    if (
      !interaction ||
      interaction.result ||
      !resource ||
      !clientId ||
      serviceOfResource(deps.publicUrl, resource) !== done.service
    ) {
      return abandon(
        'This page has expired',
        `The authorization took too long. ${START_AGAIN}`,
        410,
      )
    }

    // Signed in: the credential waits while the person chooses what the grant covers.
    await deps.choices.begin({
      interactionUid: interaction.uid,
      credentialId: done.credentialId,
      account: done.subject,
      service: done.service,
      scopes: done.scopes,
    })
    forget(c, interaction.uid)
    return c.redirect(choicePath(interaction.uid), 303)
  })

  /** The interaction of a choice under way, its consent request and its pending choice. */
  async function choosing(c: Context<InteractionEnv>) {
    const interaction = await interactionOf(c)
    if (!interaction || interaction.result) return undefined
    const [request, choice] = await Promise.all([
      consentRequest(interaction),
      deps.choices.find(interaction.uid),
    ])
    return request && choice && { interaction, request, choice }
  }

  /** What the person may choose from, read live; why not, when the provider cannot say. */
  const offerFor = (choice: PendingChoice) =>
    deps.offers.read(choice.service, choice.credentialId, choice.account)

  app.get('/consent/:uid/choose', async (c) => {
    const under = await choosing(c)
    if (!under) return expired(c)
    const read = await offerFor(under.choice)
    // The form this page can post: its items, and no more (read before the form, at the post).
    await deps.choices.drawn(under.interaction.uid, formBound('resource', offeredIds(read.offer)))
    // Least privilege that works at once: only the default list, or the first site or property.
    const first = read.offer?.defaultList ?? read.offer?.groups[0]?.items[0]?.id
    return coverageChoicePage(
      c,
      under.request,
      choiceForm(c, under.interaction.uid, under.choice, read, {
        access: read.offer ? 'chosen' : 'all',
        chosen: new Set(first ? [first] : []),
      }),
    )
  })

  app.post('/consent/:uid/choose', async (c) => {
    const under = await choosing(c)
    if (!under) return expired(c)
    const { interaction, request, choice } = under
    let read: OfferRead | undefined
    const again = async (
      message: string,
      state: Pick<ChoiceForm, 'access' | 'chosen'>,
      status: 400 | 413 = 400,
    ) => {
      read ??= await offerFor(choice)
      return coverageChoicePage(c, request, choiceForm(c, interaction.uid, choice, read, state), {
        message,
        status,
      })
    }
    const untouched = { access: 'chosen' as const, chosen: new Set<string>() }

    const form = await formFromOwnPage(
      c,
      deps.publicUrl,
      Math.max(choice.formBytes ?? 0, MAX_FORM_BYTES),
    )
    if (form === 'cross-site')
      return again('This form was sent from another site. Choose here, on this page.', untouched)
    if (form === 'unreadable') return again('The form could not be read. Choose again.', untouched)
    if (form === 'too-large')
      return again('The form is larger than this page sends. Choose again.', untouched, 413)
    if (!formTokens.check(`choose ${interaction.uid}`, form.get('csrf')))
      return again(
        'This form is out of date or did not come from this page. Choose again.',
        untouched,
      )

    if (form.has('Deny')) {
      await deps.choices.abandon(choice)
      return denied(c)
    }
    if (!form.has('Allow')) return again('Choose Allow or Deny.', untouched)
    // Only chosen ones are checked against what the provider offers the person now.
    if (form.get('access') === 'chosen') read = await offerFor(choice)
    const chosen = readChoice(choice.service, form, read?.offer)
    if ('problem' in chosen) return again(chosen.problem, chosen)

    // Taken once: of two posts of this page, one makes the grant.
    if (!(await deps.choices.take(interaction.uid))) return expired(c)
    const grantId = await newGrant(choice, request.clientId, chosen.coverage)
    await finish(interaction, {
      login: { accountId: choice.account },
      consent: { grantId },
    })
    log.info(
      {
        service: choice.service,
        client: request.clientId,
        coverage: chosen.coverage.all ? 'all' : 'chosen',
      },
      'authorization granted',
    )
    return c.redirect(interaction.returnTo, 303)
  })

  /** The ids an offer shows. */
  const offeredIds = (offer: Offer | undefined) =>
    offer?.groups.flatMap((group) => group.items.map((item) => item.id)) ?? []

  /** The choice form of this authorization, in the state given. */
  function choiceForm(
    c: Context<InteractionEnv>,
    uid: string,
    choice: PendingChoice,
    read: OfferRead,
    state: Pick<ChoiceForm, 'access' | 'chosen'>,
  ): ChoiceForm {
    const query = c.req.query('q')?.slice(0, 200) || undefined
    const path = choicePath(uid)
    return {
      service: choice.service,
      action: query ? `${path}?${new URLSearchParams({ q: query })}` : path,
      unfiltered: path,
      csrf: formTokens.issue(`choose ${uid}`),
      offer: read.offer,
      unavailable: read.unavailable,
      query,
      buttons: ['Allow', 'Deny'],
      ...state,
    }
  }

  /**
   * The grant: exactly the service's resource and the scopes granted, with its upstream
   * credential, covering what the person chose. It replaces any earlier grant of the same
   * person, client and service.
   */
  async function newGrant(choice: PendingChoice, clientId: string, coverage: Coverage) {
    const resource = resourceOf(deps.publicUrl, choice.service)
    const grant = new provider.Grant({ accountId: choice.account, clientId })
    grant.addResourceScope(resource, choice.scopes.join(' '))
    const grantId = await grant.save()
    const owner = { account: choice.account, clientId, service: choice.service }
    await deps.grants.link(
      { grantId, credentialId: choice.credentialId, ...owner },
      deps.coverage.seal(grantId, coverage),
    )
    for (const earlier of await deps.grants.linksOf(owner)) {
      if (earlier.grantId !== grantId)
        await deps.grants.end(earlier.grantId, 'replaced by a new authorization')
    }
    return grantId
  }

  /** oidc-provider's interactionResult, for a request that does not carry the interaction cookie. */
  async function finish(interaction: Interaction, result: InteractionResults) {
    interaction.result = result
    await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1))
  }

  /** The interactions this browser pressed Allow in (valid binding cookies). */
  function boundInteractions(c: Context<InteractionEnv>): string[] {
    return Object.entries(getCookie(c))
      .filter(([name]) => name.startsWith(BINDING_COOKIE_PREFIX))
      .map(([name, value]) => [name.slice(BINDING_COOKIE_PREFIX.length), value] as const)
      .filter(([uid, value]) => formTokens.check(`browser ${uid}`, value))
      .map(([uid]) => uid)
  }

  function forget(c: Context<InteractionEnv>, uid: string) {
    deleteCookie(c, BINDING_COOKIE_PREFIX + uid, { path: CALLBACK_PATH, secure, httpOnly: true })
  }

  return app
}
