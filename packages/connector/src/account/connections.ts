import type { Coverage } from '../auth/coverage.js'
import type { GrantLink } from '../auth/grants.js'
import { resourceOf } from '../auth/resources.js'
import type { ConnectionView } from '../pages/connections-page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import type { AccountParts } from './account-parts.js'

/**
 * A person's connections: the grants of the connector's authorization server that they gave,
 * one per assistant and service, described for their page, and ended when they disconnect one.
 */

/** A connection as its page shows it, with the client's id and what the grant covers. */
export interface Connection extends Omit<ConnectionView, 'coverage'> {
  clientId: string
  /** What it may use of the person's lists, sites or properties. */
  coverage: Coverage
}

export class Connections {
  constructor(
    private readonly parts: Pick<
      AccountParts,
      'config' | 'provider' | 'grants' | 'coverage' | 'clients'
    >,
  ) {}

  /** Every connection of the person, oldest first. */
  async of(account: string): Promise<Connection[]> {
    const clientOf = this.parts.clients.finder()
    const links = await this.parts.grants.linksOfAccount(account)
    return Promise.all(
      links.map(async (link) => {
        const client = await clientOf(link.clientId)
        return {
          grantId: link.grantId,
          clientName: client?.clientName || link.clientId,
          clientId: link.clientId,
          // Where this connection's authorization went back to; for older grants, wherever the
          // client may receive one.
          returnsTo: link.returnsTo
            ? [link.returnsTo]
            : [...new Set((client?.redirectUris ?? []).map(hostOf))].filter(Boolean),
          service: link.service,
          permissions: await this.permissionsOf(link.grantId, link.service),
          since: link.createdAt,
          coverage: this.parts.coverage.open(link.grantId, link.coverage),
        }
      }),
    )
  }

  /** One of the person's grants, with what it covers; undefined if it is not theirs (or gone). */
  async one(account: string, grantId: string) {
    const link = await this.parts.grants.linkOf(grantId)
    if (!link || link.account !== account) return undefined
    return { ...link, coverage: this.parts.coverage.open(link.grantId, link.coverage) }
  }

  /**
   * Sets what one of the person's grants covers, from its next call on, on every replica (each
   * call reads it with its token). 'not found' for a grant that is not theirs.
   */
  async cover(
    link: Pick<GrantLink, 'grantId'>,
    coverage: Coverage,
  ): Promise<'saved' | 'not found'> {
    const saved = await this.parts.grants.cover(
      link.grantId,
      this.parts.coverage.seal(link.grantId, coverage),
    )
    return saved ? 'saved' : 'not found'
  }

  /**
   * Ends one of the person's grants: its tokens die, and its upstream token is revoked at the
   * provider and erased (Grants.end). A grant that is not theirs, or no longer exists, is left
   * alone: 'not found'.
   */
  async disconnect(account: string, grantId: string): Promise<'disconnected' | 'not found'> {
    const link = await this.parts.grants.linkOf(grantId)
    if (!link || link.account !== account) return 'not found'
    await this.parts.grants.end(grantId, 'disconnected by the person')
    return 'disconnected'
  }

  /** The scopes the grant holds at its service, described; the client's registration for the name. */
  private async permissionsOf(grantId: string, service: ServiceName): Promise<string[]> {
    const grant = await this.parts.provider.Grant.find(grantId)
    const held = (
      grant?.getResourceScopeEncountered(resourceOf(this.parts.config.publicUrl, service)) ?? ''
    )
      .split(' ')
      .filter(Boolean)
    return SERVICES[service].scopes
      .filter((scope) => held.includes(scope.name))
      .map((scope) => scope.description)
  }
}

const hostOf = (uri: string) => URL.parse(uri)?.host ?? ''
