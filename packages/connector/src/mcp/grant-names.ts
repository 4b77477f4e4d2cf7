import { distance } from 'fastest-levenshtein'
import type { Logger } from 'pino'
import { covers, type Coverage } from '../auth/coverage.js'
import { offerThrough, type OfferDeps } from '../auth/offer.js'
import type { Offer } from '../pages/choice-page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { Recent } from '../services/recent.js'
import type { ToolGrant } from './grant-access.js'

/**
 * What a grant covers, by name, as a model is told it: in a tool's schema (grant-listing.ts) and
 * in a refusal. The names are the provider's (a property's display name and account, a task
 * list's title), read through the request's own grant as the person's choice page reads them
 * (auth/offer.ts), and kept in memory a minute by grant: never stored.
 */

/** One resource a grant covers: the value its field takes, and what the person calls it. */
export interface Named {
  value: string
  /** Unset where the value is the name (a siteUrl), or the provider did not say. */
  title?: string
}

/** Names kept this long: what the person renames or adds at the provider shows within it. */
const KEPT_MS = 60_000
/** At most this many grants' names are kept; the oldest go first. */
const GRANTS_KEPT = 10_000

export class GrantNames {
  readonly #kept: Recent<Offer>

  constructor(
    private readonly deps: Pick<OfferDeps, 'api' | 'profile'> & { log: Logger },
    now: () => number = Date.now,
  ) {
    this.#kept = new Recent(KEPT_MS, GRANTS_KEPT, now)
  }

  /**
   * Every resource the grant covers, in the provider's order (by account, for properties), named
   * where the provider says; read through the grant unless known. A provider that cannot say
   * now leaves the grant's own ids, unnamed; for a grant of every one, undefined: not known.
   */
  async of(service: ServiceName, grant: ToolGrant): Promise<Named[] | undefined> {
    if (service === 'search') return idsOf(service, grant.coverage)
    const offer = this.#known(service, grant) ?? (await this.#read(service, grant))
    return offer ? namedIn(service, offer, grant.coverage) : idsOf(service, grant.coverage)
  }

  /** The same from what is known, with no request to the provider: a refusal sends nothing. */
  known(service: ServiceName, grant: ToolGrant): Named[] | undefined {
    const offer = service === 'search' ? undefined : this.#known(service, grant)
    return offer ? namedIn(service, offer, grant.coverage) : idsOf(service, grant.coverage)
  }

  #known(service: ServiceName, grant: ToolGrant): Offer | undefined {
    return this.#kept.get(keyOf(service, grant))
  }

  async #read(service: ServiceName, grant: ToolGrant): Promise<Offer | undefined> {
    try {
      const offer = await offerThrough(this.deps, service, grant)
      this.#kept.set(keyOf(service, grant), offer)
      return offer
    } catch (error) {
      // A revoked credential ends the grant on the way (grant-access.ts): the request says so.
      this.deps.log.warn({ err: error, service }, 'could not read the names of a grant’s resources')
      return undefined
    }
  }
}

const keyOf = (service: ServiceName, grant: ToolGrant) => `${service}\n${grant.link.grantId}`

/** The offer's resources the coverage covers, as their field takes them. */
function namedIn(service: ServiceName, offer: Offer, coverage: Coverage): Named[] {
  const valueOf = fieldValue(service)
  return offer.groups.flatMap((group) =>
    group.items
      .filter((item) => covers(coverage, item.id))
      .map((item) => ({
        value: valueOf(item.id),
        title: group.name ? `${item.label} (${group.name})` : item.label,
      })),
  )
}

/** A grant of chosen ones, by id alone; a grant of every one names none by itself. */
function idsOf(service: ServiceName, coverage: Coverage): Named[] | undefined {
  if (coverage.all) return undefined
  const valueOf = fieldValue(service)
  return [...coverage.ids].map((id) => ({ value: valueOf(id) }))
}

/** What a tool's field takes for a kept id: a property's number for `properties/N`. */
const fieldValue = (service: ServiceName) => SERVICES[service].resource.valueOfId ?? String

/**
 * The named, closest to what a call gave first: its value exactly, then a name containing it
 * (or contained in it), then by edits to the name or the value. Without a value, as they are.
 */
export function closestFirst(named: readonly Named[], given: string | undefined): Named[] {
  const wanted = given?.trim().toLowerCase()
  if (!wanted) return [...named]
  const score = ({ value, title }: Named) => {
    if (value.toLowerCase() === wanted) return -2
    const name = (title ?? value).toLowerCase()
    if (name.includes(wanted) || wanted.includes(name)) return -1
    return Math.min(distance(wanted, name), distance(wanted, value.toLowerCase()))
  }
  return named
    .map((one, index) => ({ one, index, score: score(one) }))
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map(({ one }) => one)
}

/** At most this many are named in a refusal. */
const NAMED_IN_REFUSAL = 20

/**
 * The grant's resources in a refusal's words, closest to `given` first: `"Shop (Acme)":
 * 123456; ...`, and how many more.
 */
export function namedList(
  service: ServiceName,
  named: readonly Named[],
  given: string | undefined,
): string {
  const { nouns } = SERVICES[service].resource
  if (named.length === 0) return `This connection covers no ${nouns} yet.`
  const shown = closestFirst(named, given).slice(0, NAMED_IN_REFUSAL)
  const listed = shown.map((one) => (one.title ? `"${one.title}": ${one.value}` : one.value))
  const more = named.length - shown.length
  const order = given ? ', closest first' : ''
  return `The ${nouns} this connection may use${order}: ${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`
}
