import type { Client, Provider } from 'oidc-provider'
import type { Logger } from 'pino'

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

  /** The names of the clients of one page: each looked up once, its id when it has none. */
  namer(): (clientId: string) => Promise<string> {
    const names = new Map<string, Promise<string>>()
    return (clientId) => {
      let name = names.get(clientId)
      if (!name) {
        name = this.find(clientId).then((client) => client?.clientName || clientId)
        names.set(clientId, name)
      }
      return name
    }
  }
}
