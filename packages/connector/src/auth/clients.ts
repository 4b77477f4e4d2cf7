import type { Client, Provider } from 'oidc-provider'
import type { Logger } from 'pino'

/**
 * Whether a client id names a client ID metadata document (an https URL, oidc-provider's own
 * rule), rather than a registration of this server.
 */
export const isDocumentClientId = (id: unknown): id is string =>
  typeof id === 'string' && /^https:\/\//i.test(id)

/**
 * The assistants (OAuth clients) as the person's pages name them. A client's metadata document
 * that cannot be fetched now leaves a page with the client's id, never without the page.
 */
export class ClientDirectory {
  constructor(
    private readonly provider: Provider,
    private readonly log: Logger,
  ) {}

  /** A client by id, or undefined when it is gone or cannot be loaded. */
  async find(clientId: string): Promise<Client | undefined> {
    try {
      return await this.provider.Client.find(clientId)
    } catch (error) {
      this.log.warn({ err: error }, 'could not load a client for a page')
      return undefined
    }
  }

  /** The clients of one page: each looked up once however many of its lines name it. */
  finder(): (clientId: string) => Promise<Client | undefined> {
    const found = new Map<string, Promise<Client | undefined>>()
    return (clientId) => {
      let client = found.get(clientId)
      if (!client) found.set(clientId, (client = this.find(clientId)))
      return client
    }
  }

  /** The names of the clients of one page: each looked up once, its id when it has none. */
  namer(): (clientId: string) => Promise<string> {
    const find = this.finder()
    return async (clientId) => (await find(clientId))?.clientName || clientId
  }
}
