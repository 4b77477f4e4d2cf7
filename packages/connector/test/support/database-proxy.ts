import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A TCP proxy between connectors and PostgreSQL, to take the database away without touching the
 * machine's server: every connection through it can be ended at once (as a server restart does,
 * which first ends every session), new ones refused (a server that is down), or held (a host
 * that does not answer: the connection neither opens nor fails). `databaseUrl` is the database's
 * URL through the proxy.
 *
 *   const proxy = await databaseProxy(databaseUrl)
 *   proxy.down('refuse') ... proxy.up()
 */
export type Outage = 'refuse' | 'hold'

export interface DatabaseProxy {
  readonly databaseUrl: string
  /** Connections open through it now. */
  readonly open: number
  /** Ends every connection; from now on new ones are refused, or held, until `up()`. */
  down(outage?: Outage): void
  /** Ends every connection and lets new ones through (as a server that restarts). */
  restart(): void
  up(): void
  close(): Promise<void>
}

export async function databaseProxy(target: string): Promise<DatabaseProxy> {
  const url = new URL(target)
  const upstream = { host: url.hostname, port: Number(url.port || 5432) }
  const sockets = new Set<Socket>()
  const held = new Set<Socket>()
  let outage: Outage | undefined

  const endAll = () => {
    for (const socket of sockets) socket.destroy()
    sockets.clear()
  }

  const server: Server = createServer((client) => {
    if (outage === 'refuse') return void client.resetAndDestroy()
    if (outage === 'hold') {
      // Accepted, and never answered: the client waits for the server's first word.
      held.add(client)
      client.on('close', () => held.delete(client))
      client.on('error', () => {})
      return
    }
    const server = connect(upstream)
    sockets.add(client)
    sockets.add(server)
    const forget = () => {
      sockets.delete(client)
      sockets.delete(server)
    }
    client.on('error', () => server.destroy())
    server.on('error', () => client.destroy())
    client.on('close', () => (server.destroy(), forget()))
    server.on('close', () => (client.destroy(), forget()))
    client.pipe(server)
    server.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url.hostname = '127.0.0.1'
  url.port = String((server.address() as AddressInfo).port)

  const up = () => {
    outage = undefined
    for (const socket of held) socket.destroy()
    held.clear()
  }
  return {
    databaseUrl: url.toString(),
    get open() {
      return sockets.size / 2
    },
    down(kind: Outage = 'refuse') {
      outage = kind
      endAll()
    },
    restart() {
      endAll()
    },
    up,
    async close() {
      up()
      endAll()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
