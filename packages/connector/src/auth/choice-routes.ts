import type { Context, Hono } from 'hono'
import type { Interaction } from 'oidc-provider'
import type { ChoiceForm } from '../pages/choice-page.js'
import { coverageChoicePage, type ConsentRequest } from '../pages/consent-page.js'
import type { PendingChoice } from './choices.js'
import type { Coverage } from './coverage.js'
import { formBound, formFromOwnPage, MAX_FORM_BYTES } from './form-post.js'
import type { InteractionParts, InteractionEnv } from './interaction-parts.js'
import {
  choicePath,
  consentRequest,
  denied,
  expired,
  finish,
  interactionOf,
} from './interaction-state.js'
import { newGrant } from './new-grant.js'
import type { OfferRead } from './offer.js'
import { choiceFormAt, offeredIds, readChoice } from './posted-choice.js'

/**
 *   GET  /consent/{uid}/choose   which lists, sites or properties the grant covers (read live)
 *   POST /consent/{uid}/choose   Allow: make the grant, finish; Deny: release it, access_denied
 */
export function choiceRoutes(app: Hono<InteractionEnv>, parts: InteractionParts) {
  app.get('/consent/:uid/choose', (c) => choicePage(parts, c))
  app.post('/consent/:uid/choose', (c) => choicePosted(parts, c))
}

/** The choice's page, with a first choice made for the person. */
async function choicePage(parts: InteractionParts, c: Context<InteractionEnv>) {
  const under = await choosing(parts, c)
  if (!under) return expired(c)
  const read = await offerFor(parts, under.choice)
  // The form this page can post: its items, and no more (read before the form, at the post).
  await parts.choices.drawn(under.interaction.uid, formBound('resource', offeredIds(read.offer)))
  // Least privilege that works at once: only the default list, or the first site or property.
  const first = read.offer?.defaultList ?? read.offer?.groups[0]?.items[0]?.id
  return coverageChoicePage(
    c,
    under.request,
    choiceForm(parts, c, under.interaction.uid, under.choice, read, {
      access: read.offer ? 'chosen' : 'all',
      chosen: new Set(first ? [first] : []),
    }),
  )
}

/** The choice posted: Deny, or Allow with what the person chose, checked. */
async function choicePosted(parts: InteractionParts, c: Context<InteractionEnv>) {
  const under = await choosing(parts, c)
  if (!under) return expired(c)
  const { interaction, request, choice } = under
  let read: OfferRead | undefined
  const again = async (
    message: string,
    state: Pick<ChoiceForm, 'access' | 'chosen'>,
    status: 400 | 413 = 400,
  ) => {
    read ??= await offerFor(parts, choice)
    return coverageChoicePage(
      c,
      request,
      choiceForm(parts, c, interaction.uid, choice, read, state),
      { message, status },
    )
  }
  const untouched = { access: 'chosen' as const, chosen: new Set<string>() }

  const form = await formFromOwnPage(
    c,
    parts.config.publicUrl,
    Math.max(choice.formBytes ?? 0, MAX_FORM_BYTES),
  )
  if (form === 'cross-site')
    return again('This form was sent from another site. Choose here, on this page.', untouched)
  if (form === 'unreadable') return again('The form could not be read. Choose again.', untouched)
  if (form === 'too-large')
    return again('The form is larger than this page sends. Choose again.', untouched, 413)
  if (!parts.forms.consent.check(`choose ${interaction.uid}`, form.get('csrf')))
    return again(
      'This form is out of date or did not come from this page. Choose again.',
      untouched,
    )

  if (form.has('Deny')) {
    await parts.choices.abandon(choice)
    return denied(parts.provider, c)
  }
  if (!form.has('Allow')) return again('Choose Allow or Deny.', untouched)
  // Only chosen ones are checked against what the provider offers the person now.
  if (form.get('access') === 'chosen') read = await offerFor(parts, choice)
  const chosen = readChoice(choice.service, form, read?.offer)
  if ('problem' in chosen) return again(chosen.problem, chosen)

  return allowed(parts, c, under, chosen.coverage)
}

/** Allow, with a choice that holds: the grant, and the client's authorization finished. */
async function allowed(
  parts: InteractionParts,
  c: Context,
  { interaction, request, choice }: UnderWay,
  coverage: Coverage,
) {
  // Taken once: of two posts of this page, one makes the grant.
  if (!(await parts.choices.take(interaction.uid))) return expired(c)
  const grantId = await newGrant(
    parts,
    choice,
    { clientId: request.clientId, returnsTo: request.redirectHost },
    coverage,
  )
  await finish(interaction, {
    login: { accountId: choice.account },
    consent: { grantId },
  })
  parts.log.info(
    {
      service: choice.service,
      client: request.clientId,
      coverage: coverage.all ? 'all' : 'chosen',
    },
    'authorization granted',
  )
  return c.redirect(interaction.returnTo, 303)
}

/** A choice under way: its interaction, its consent request and its pending choice. */
interface UnderWay {
  interaction: Interaction
  request: ConsentRequest
  choice: PendingChoice
}

/** The choice under way in this browser, at the uid the URL names. */
async function choosing(
  parts: InteractionParts,
  c: Context<InteractionEnv>,
): Promise<UnderWay | undefined> {
  const interaction = await interactionOf(parts.provider, c)
  if (!interaction || interaction.result) return undefined
  const [request, choice] = await Promise.all([
    consentRequest(parts, interaction),
    parts.choices.find(interaction.uid),
  ])
  return request && choice && { interaction, request, choice }
}

/** What the person may choose from, read live; why not, when the provider cannot say. */
const offerFor = (parts: InteractionParts, choice: PendingChoice) =>
  parts.offers.read(choice.service, choice.credentialId, choice.account)

/** The choice form of this authorization, in the state given. */
function choiceForm(
  parts: InteractionParts,
  c: Context,
  uid: string,
  choice: PendingChoice,
  read: OfferRead,
  state: Pick<ChoiceForm, 'access' | 'chosen'>,
): ChoiceForm {
  const csrf = parts.forms.consent.issue(`choose ${uid}`)
  const form = { service: choice.service, path: choicePath(uid), csrf, read }
  return choiceFormAt(c, { ...form, buttons: ['Allow', 'Deny'] }, state)
}
