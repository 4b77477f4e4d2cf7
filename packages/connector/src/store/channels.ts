import { EventEmitter } from 'node:events'

/**
 * A channel between the replicas that share the store: a message published by one reaches every
 * one subscribed, itself included, or is lost (nobody waits for it, or a replica's link is down):
 * what needs keeping goes in the store. On PostgreSQL, LISTEN and NOTIFY on one connection of
 * its own; on SQLite, one process holds the store, and the channel stays in it.
 */
export interface Channel {
  /** Sends `payload` (at most 7,900 bytes: NOTIFY's own bound) to every subscriber. */
  publish(payload: string): Promise<void>
  /** Calls `listener` with every payload from now on; resolves once listening. */
  subscribe(listener: (payload: string) => void): Promise<() => void>
}

/** NOTIFY's payload must be under 8,000 bytes. */
export const MAX_PAYLOAD_BYTES = 7900

export const tooLarge = (payload: string) => Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES

/** One process: a message reaches this process's subscribers. */
export function processChannels() {
  const events = new EventEmitter()
  events.setMaxListeners(0)
  return {
    channel(name: string): Channel {
      return {
        async publish(payload) {
          if (tooLarge(payload)) throw new RangeError(`a ${name} message is too large`)
          events.emit(name, payload)
        },
        async subscribe(listener) {
          events.on(name, listener)
          return () => void events.off(name, listener)
        },
      }
    },
    close: async () => void events.removeAllListeners(),
  }
}
