import type { Context } from 'hono'
import type { ChoiceForm } from '../pages/choice-page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { EVERY_ONE, onlyThese, type Coverage } from './coverage.js'
import type { Offer, OfferRead } from './offer.js'

/**
 * The choice form (pages/choice-page.ts), at consent and on the connections page: the form as
 * drawn, and what the person chose of what the provider offered them, or what to fix.
 */

/** The ids an offer shows: all a form drawn from it can name. */
export const offeredIds = (offer: Offer | undefined): string[] =>
  offer?.groups.flatMap((group) => group.items.map((item) => item.id)) ?? []

/** The choice form posted to `path`, in the state given, with the request's search (`q`). */
export function choiceFormAt(
  c: Context,
  form: {
    service: ServiceName
    path: string
    csrf: string
    read: OfferRead
    buttons: ChoiceForm['buttons']
  },
  state: Pick<ChoiceForm, 'access' | 'chosen'>,
): ChoiceForm {
  const query = c.req.query('q')?.slice(0, 200) || undefined
  const { path } = form
  return {
    service: form.service,
    action: query ? `${path}?${new URLSearchParams({ q: query })}` : path,
    unfiltered: path,
    csrf: form.csrf,
    offer: form.read.offer,
    unavailable: form.read.unavailable,
    query,
    buttons: form.buttons,
    ...state,
  }
}

/** What a posted choice asks for, checked against what was offered, or what to fix. */
export function readChoice(
  service: ServiceName,
  form: URLSearchParams,
  offer: Offer | undefined,
): { coverage: Coverage } | { problem: string; access: 'all' | 'chosen'; chosen: Set<string> } {
  const { noun, nouns } = SERVICES[service].resource
  const access = form.get('access')
  const chosen = new Set(form.getAll('resource'))
  if (access === 'all') return { coverage: EVERY_ONE }
  const again = { access: 'chosen' as const, chosen }
  if (access !== 'chosen')
    return { ...again, problem: `Choose every ${noun}, or only the ones you tick.` }
  if (!offer)
    return {
      ...again,
      problem: `Your ${nouns} could not be read: choose every ${noun}, or try again.`,
    }
  const offered = new Set(offeredIds(offer))
  const unknown = [...chosen].filter((id) => !offered.has(id))
  if (unknown.length)
    return {
      access: 'chosen',
      chosen: new Set([...chosen].filter((id) => offered.has(id))),
      problem: `The form named ${unknown.length === 1 ? `a ${noun}` : `${nouns}`} that ${unknown.length === 1 ? 'is' : 'are'} not yours. Choose again.`,
    }
  if (chosen.size === 0)
    return { ...again, problem: `Tick at least one ${noun}, or choose every ${noun}.` }
  return { coverage: onlyThese(chosen, offer.defaultList) }
}
