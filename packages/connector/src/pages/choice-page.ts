import { html } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { SERVICES, type ServiceName } from '../services/catalog.js'

/**
 * The choice of what a grant covers (auth/coverage.ts), as a form of the person's pages: a radio
 * `access`, `all` (every one, including those added later) or `chosen` (only the ticked ones),
 * and a checkbox `resource` per list, site or property, whose value is the provider's id. Shown
 * at consent and on the connections page; no script. Long lists stay usable on a phone: grouped
 * by account (each group folds), and a search that narrows what is shown.
 */

/**
 * What the provider offers the person, as the form shows it: an offer read live (auth/offer.ts),
 * declared here so that the page needs nothing of the parts that serve it.
 */
export interface Offer {
  readonly groups: readonly OfferedGroup[]
  /** How many items in all. */
  readonly count: number
  /** Set when the provider had more than a page can hold. */
  readonly truncated?: boolean
}

export interface OfferedGroup {
  /** An account's name, for properties; none for lists and sites. */
  readonly name?: string
  readonly items: readonly OfferedItem[]
}

export interface OfferedItem {
  /**
   * The provider's id, which the grant keeps (a list's id, a siteUrl, properties/N): the value
   * of its checkbox.
   */
  readonly id: string
  /** What the person knows it by. */
  readonly label: string
  /** A word more: a site's permission, a property's number. */
  readonly detail?: string
}

export interface ChoiceForm {
  service: ServiceName
  /** The form's action, with the search in force. */
  action: string
  csrf: string
  /** What the provider offers; undefined when it could not say (`unavailable` says why). */
  offer: Offer | undefined
  unavailable?: string
  access: 'all' | 'chosen'
  /** Ticked. */
  chosen: ReadonlySet<string>
  /** What the search narrows the items to, if anything. */
  query?: string
  /** The page's own URL without a search, for "Show all". */
  unfiltered: string
  /** The buttons: the primary one first. */
  buttons: readonly string[]
}

/** Past this many items, a search is offered, and groups start folded. */
const MANY = 12

export function choiceForm(form: ChoiceForm): HtmlEscapedString | Promise<HtmlEscapedString> {
  const { noun, nouns } = SERVICES[form.service].resource
  const offer = form.offer
  const shown = offer && narrowed(offer.groups, form.query)
  const shownCount = shown?.reduce((n, group) => n + group.items.length, 0) ?? 0
  const search =
    offer && (offer.count > MANY || form.query)
      ? html`<form method="get" action="${form.unfiltered}" role="search" class="find">
          <label for="find">Find a ${noun}</label>
          <input type="search" id="find" name="q" value="${form.query ?? ''}" />
          <button>Find</button>
        </form>`
      : ''
  const found =
    form.query && offer
      ? html`<p class="meta" aria-live="polite">
          ${shownCount} of ${offer.count} ${nouns} match “${form.query}”.
          <a href="${form.unfiltered}">Show all</a>
        </p>`
      : ''
  const fold = (offer?.count ?? 0) > MANY && (shown?.length ?? 0) > 1
  return html`${search} ${found}
    <form method="post" action="${form.action}">
      <input type="hidden" name="csrf" value="${form.csrf}" />
      <fieldset>
        <legend>What it may use</legend>
        ${
          offer
            ? html`<label class="option">
                <input
                  type="radio"
                  name="access"
                  value="chosen"
                  ${form.access === 'chosen' ? 'checked' : ''}
                />
                <span>Only the ${nouns} I tick below</span>
              </label>`
            : ''
        }
        <label class="option">
          <input
            type="radio"
            name="access"
            value="all"
            ${form.access === 'all' || !offer ? 'checked' : ''}
          />
          <span>Every ${noun}, including ones added later</span>
        </label>
      </fieldset>
      ${
        offer
          ? html`${offer.count === 0 ? html`<p class="meta">You have no ${nouns} yet.</p>` : ''}
            ${shown!.map((group) => groupOf(group, form, fold))}
            ${
              offer.truncated
                ? html`<p class="meta">
                    Only the first ${offer.count} are shown: to include the others, choose every
                    ${noun}.
                  </p>`
                : ''
            }`
          : html`<p class="alert" role="alert">${form.unavailable}</p>`
      }
      <div class="actions">
        ${form.buttons.map((name) => html`<button name="${name}" value="${name}">${name}</button>`)}
      </div>
    </form>`
}

function groupOf(group: OfferedGroup, form: ChoiceForm, fold: boolean) {
  const { noun, nouns } = SERVICES[form.service].resource
  const options = group.items.map((item) => option(item, form.chosen.has(item.id)))
  if (!group.name)
    return html`<fieldset>
      <legend>Your ${nouns}</legend>
      <div class="choices">${options}</div>
    </fieldset>`
  const count = `${group.items.length} ${group.items.length === 1 ? noun : nouns}`
  const open = !fold || group.items.some((item) => form.chosen.has(item.id))
  return html`<details class="group" ${open ? 'open' : ''}>
    <summary>${group.name} <small>· ${count}</small></summary>
    <fieldset class="choices">
      <legend class="hidden">${group.name}</legend>
      ${options}
    </fieldset>
  </details>`
}

const option = (item: OfferedItem, ticked: boolean) =>
  html`<label class="option">
    <input type="checkbox" name="resource" value="${item.id}" ${ticked ? 'checked' : ''} />
    <span>${item.label}${item.detail ? html`<small>${item.detail}</small>` : ''}</span>
  </label>`

/** The groups with only the items (or whole groups, by name) that the search finds. */
function narrowed(groups: readonly OfferedGroup[], query: string | undefined): OfferedGroup[] {
  const words = query?.toLowerCase().split(/\s+/).filter(Boolean) ?? []
  if (!words.length) return [...groups]
  const matches = (text: string) => words.every((word) => text.toLowerCase().includes(word))
  return groups.flatMap((group) => {
    if (group.name && matches(group.name)) return [group]
    const items = group.items.filter((item) => matches(`${item.label} ${item.detail ?? ''}`))
    return items.length ? [{ ...group, items }] : []
  })
}
