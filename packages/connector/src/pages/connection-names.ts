import { when } from './page.js'

/** One of the person's connections, as far as its name goes. */
export interface NamedConnection {
  grantId: string
  /** The assistant's name (its client's). */
  clientName: string
  /** When it was made (epoch milliseconds). */
  since: number
  /** Where its authorization sent the person back, when known (`localhost:54321`). */
  returnsTo?: string | null
}

/**
 * How the person's pages name each of their connections: the assistant's name, and where two of
 * them share it (Claude Code on two machines, two installs that registered the same name), when
 * each was made and where it returns, so that one can be told from the other.
 */
export function connectionNames(connections: readonly NamedConnection[]): Map<string, string> {
  const count = new Map<string, number>()
  for (const { clientName } of connections) count.set(clientName, (count.get(clientName) ?? 0) + 1)
  return new Map(
    connections.map((connection) => {
      const { grantId, clientName, since, returnsTo } = connection
      if (count.get(clientName) === 1) return [grantId, clientName]
      const to = returnsTo ? `, returns to ${returnsTo}` : ''
      return [grantId, `${clientName} (connected ${when(since)}${to})`]
    }),
  )
}
