import type { ServiceName } from '../services/catalog.js'
import { accountSummaries, listAccountSummaries } from '../services/analytics/properties.js'
import { operationOf, type ProviderProfile } from '../services/profiles/index.js'
import { sitesList } from '../services/search/resources.js'
import { taskList, taskListsPage } from '../services/tasks/resources.js'
import type { Logger } from 'pino'
import { SERVICES } from '../services/catalog.js'
import { quotaOf } from '../quotas/shared-quotas.js'
import { UpstreamApiError, type ApiGrant, type UpstreamApi } from '../upstream/index.js'
import { DEFAULT_LIST } from './coverage.js'
import type { Offer as ShownOffer, OfferedGroup, OfferedItem } from '../pages/choice-page.js'

/**
 * What a grant may cover, read live from the provider with the person's credential when they
 * choose (at consent, or on their connections page): their task lists, their sites, or their
 * properties by account. Nothing of it is kept but the ids they choose (coverage.ts).
 */

/** What the person may choose from, as the choice page shows it, and what `@default` names. */
export interface Offer extends ShownOffer {
  /** The list "@default" names, for task lists. */
  readonly defaultList?: string
}

/**
 * At most this many are offered: Google allows a person 2,000 task lists, and a page longer than
 * that is not one a person reads. The rest stay reachable by choosing every one.
 */
export const MAX_OFFERED = 2000

/** The person's credential, as the reads need it. */
export interface CredentialTokens {
  accessToken(credentialId: string): Promise<string>
  afterUnauthorized(credentialId: string, rejectedToken: string): Promise<string>
}

export interface OfferDeps {
  api: Pick<UpstreamApi, 'call'>
  profile: ProviderProfile
  tokens: CredentialTokens
  log: Logger
}

/** What a choice's page shows: the offer, or why the provider could not say. */
export type OfferRead =
  { offer: Offer; unavailable?: undefined } | { offer?: undefined; unavailable: string }

const PERMISSIONS: Record<string, string> = {
  siteOwner: 'owner',
  siteFullUser: 'full user',
  siteRestrictedUser: 'restricted user',
  siteUnverifiedUser: 'not verified',
}

export class Offers {
  constructor(private readonly deps: OfferDeps) {}

  /**
   * The offer for a choice's page; when the provider cannot say, why, in the person's words
   * (they can still choose every one, or deny).
   */
  async read(service: ServiceName, credentialId: string, person: string): Promise<OfferRead> {
    try {
      return { offer: await this.of(service, credentialId, person) }
    } catch (error) {
      this.deps.log.warn({ err: error, service }, 'could not read what a grant may cover')
      const { noun, nouns } = SERVICES[service].resource
      const choices = `allow every ${noun}, try again later, or deny`
      if (error instanceof UpstreamApiError && error.kind === 'api_disabled')
        return { unavailable: notEnabled(error, nouns, choices) }
      return {
        unavailable: `Your provider did not list your ${nouns} just now, so you cannot pick some of them here. You can ${choices}.`,
      }
    }
  }

  /** What `service`'s grant may cover, for the person whose credential this is. */
  of(service: ServiceName, credentialId: string, person: string): Promise<Offer> {
    return offerThrough(this.deps, service, {
      upstreamAccessToken: () => this.deps.tokens.accessToken(credentialId),
      upstreamTokenAfterUnauthorized: (token) =>
        this.deps.tokens.afterUnauthorized(credentialId, token),
      person,
    })
  }
}

/**
 * The API that lists the person's lists, sites or properties is not enabled for the connector:
 * which, and where its operator enables it, when the provider said.
 */
function notEnabled(
  { apiTitle, activationUrl }: UpstreamApiError,
  nouns: string,
  choices: string,
): string {
  const api = `the API that lists your ${nouns}${apiTitle ? ` (the ${apiTitle})` : ''}`
  return activationUrl
    ? `Google says ${api} is not enabled for this connector, so you cannot pick some of them here: the connector's operator must enable it at ${activationUrl}. Until then, you can ${choices}.`
    : `The connector's operator has not enabled ${api} at your provider, so you cannot pick some of them here. You can ${choices}.`
}

/**
 * What `service`'s grant may cover, read through `grant`: the person's task lists (and which
 * one "@default" names), sites, or properties by account. A tool listing reads it with the
 * request's own grant, to name the grant's lists or properties to the model
 * (src/mcp/grant-listing.ts).
 */
export function offerThrough(
  deps: Pick<OfferDeps, 'api' | 'profile'>,
  service: ServiceName,
  grant: ApiGrant,
): Promise<Offer> {
  const read: Reader = async (name, query, pathParams) => {
    const { method, path, api } = operationOf(deps.profile, name)
    const result = await deps.api.call(
      {
        service,
        quota: quotaOf(service, name),
        ...(api && { api }),
        method,
        path,
        ...(query && { query }),
        ...(pathParams && { pathParams }),
        idempotent: true,
      },
      grant,
    )
    return result.body
  }
  switch (service) {
    case 'tasks':
      return lists(read)
    case 'search':
      return sites(read)
    case 'analytics':
      return properties(read)
  }
}

async function lists(read: Reader): Promise<Offer> {
  const items: OfferedItem[] = []
  let pageToken: string | undefined
  do {
    const page = taskListsPage.parse(
      await read('list_task_lists', { maxResults: 1000, ...(pageToken && { pageToken }) }),
    )
    for (const list of page.items ?? []) items.push({ id: list.id, label: list.title })
    pageToken = page.nextPageToken
  } while (pageToken && items.length < MAX_OFFERED)
  // Which list "@default" names: the provider says, whatever the order of its lists.
  const { id } = taskList.parse(await read('get_task_list', undefined, { tasklist: DEFAULT_LIST }))
  return { ...offered([{ items }]), defaultList: id }
}

async function sites(read: Reader): Promise<Offer> {
  const { siteEntry = [] } = sitesList.parse(await read('list_sites'))
  return offered([
    {
      items: siteEntry.map((site) => ({
        id: site.siteUrl,
        label: site.siteUrl,
        detail: PERMISSIONS[site.permissionLevel ?? ''],
      })),
    },
  ])
}

async function properties(read: Reader): Promise<Offer> {
  const groups: OfferedGroup[] = []
  let count = 0
  let pageToken: string | undefined
  do {
    const page = accountSummaries.parse(
      await read(listAccountSummaries.name, { pageSize: 200, ...(pageToken && { pageToken }) }),
    )
    for (const account of page.accountSummaries ?? []) {
      const items = (account.propertySummaries ?? []).map((p) => ({
        id: p.property,
        label: p.displayName ?? p.property,
        detail: `ID ${p.property.replace(/^properties\//, '')}`,
      }))
      count += items.length
      if (items.length) groups.push({ name: account.displayName ?? account.account, items })
    }
    pageToken = page.nextPageToken
  } while (pageToken && count < MAX_OFFERED)
  return offered(groups)
}

type Reader = (
  operation: string,
  query?: Record<string, string | number>,
  pathParams?: Record<string, string>,
) => Promise<unknown>

/** The groups, cut to MAX_OFFERED items in all. */
function offered(groups: OfferedGroup[]): Offer {
  let room = MAX_OFFERED
  const kept: OfferedGroup[] = []
  let count = 0
  let truncated = false
  for (const group of groups) {
    if (room === 0) {
      truncated = true
      break
    }
    const items = group.items.slice(0, room)
    if (items.length < group.items.length) truncated = true
    room -= items.length
    count += items.length
    kept.push({ ...group, items })
  }
  return { groups: kept, count, ...(truncated && { truncated }) }
}
