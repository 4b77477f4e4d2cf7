import pg from 'pg'
import { tooLarge, type Channel } from './channels.js'

/** How soon a lost LISTEN connection is made again. */
const RECONNECT_MS = 1000

/**
 * Every replica: NOTIFY through the pool, LISTEN on a connection of its own (a pooled one would
 * be handed to another query). A lost connection is made again while anyone listens; what was
 * sent meanwhile is lost, which the channel allows.
 */
export function postgresChannels(
  pool: pg.Pool,
  connectionString: string,
  onError: (error: Error) => void = () => {},
) {
  const listeners = new Map<string, Set<(payload: string) => void>>()
  let client: pg.Client | undefined
  let connecting: Promise<void> | undefined
  let retrying: NodeJS.Timeout | undefined
  let closed = false

  /** Again in a second, and again after that, until it holds, the channels close or nobody listens. */
  const reconnectSoon = () => {
    if (closed || !listeners.size || retrying) return
    retrying = setTimeout(() => {
      retrying = undefined
      connect().catch((error: Error) => {
        onError(error)
        reconnectSoon()
      })
    }, RECONNECT_MS).unref()
  }

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString })
      next.on('notification', ({ channel, payload }) => {
        for (const listener of listeners.get(channel) ?? []) listener(payload ?? '')
      })
      next.on('error', (error) => {
        onError(error)
        if (client === next) client = undefined
        reconnectSoon()
      })
      try {
        await next.connect()
        for (const name of listeners.keys()) await next.query(`LISTEN ${identifier(name)}`)
        // Closed meanwhile: nobody would end it.
        if (closed) return void (await next.end().catch(() => {}))
        client = next
      } catch (error) {
        void next.end().catch(() => {})
        throw error
      }
    })().finally(() => (connecting = undefined))
    return connecting
  }

  return {
    channel(name: string): Channel {
      return {
        async publish(payload) {
          if (tooLarge(payload)) throw new RangeError(`a ${name} message is too large`)
          await pool.query('SELECT pg_notify($1, $2)', [name, payload])
        },
        async subscribe(listener) {
          let named = listeners.get(name)
          if (!named) listeners.set(name, (named = new Set()))
          named.add(listener)
          try {
            if (connecting) await connecting
            if (!client) await connect()
            else if (named.size === 1) await client.query(`LISTEN ${identifier(name)}`)
          } catch (error) {
            // The listener stays: the next connection that holds listens for it.
            reconnectSoon()
            throw error
          }
          return () => void named.delete(listener)
        },
      }
    },
    async close() {
      closed = true
      clearTimeout(retrying)
      listeners.clear()
      await client?.end().catch(() => {})
      client = undefined
    },
  }
}

/** A channel's name as SQL: ours are lower-case letters and underscores. */
function identifier(name: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a channel name: ${name}`)
  return name
}
