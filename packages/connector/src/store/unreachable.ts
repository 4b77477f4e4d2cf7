/**
 * Whether an error means the database could not be reached or went away, rather than a query
 * that is wrong: a refused or reset connection, a name that does not resolve, a connection the
 * server ended (a restart ends every session with 57P01), a server starting or stopping, the
 * pool's wait for a connection run out. Such a failure is the store's, for a moment: a request
 * that meets it is told to try again (503 with Retry-After) and nothing of the person's changes.
 */

/** Node's and the resolver's codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * PostgreSQL's SQLSTATE classes and codes for the same: 08 connection exceptions, 57P01 to 57P03
 * (administrator or crash shutdown, cannot connect now), 53300 too many connections.
 */
const POSTGRES_CODES = /^(08...|57P0[1-3]|53300)$/

/** pg's own words when a connection ends or cannot be had from the pool. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
]

export function isStoreUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== 'object') return false
    const { code, message } = cause as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.test(code)))
      return true
    if (typeof message === 'string' && PG_MESSAGES.some((words) => message.includes(words)))
      return true
    // An AggregateError (a name with several addresses, each refused) or a wrapped cause.
    const { errors } = cause as { errors?: unknown }
    if (Array.isArray(errors) && errors.some(isStoreUnreachable)) return true
    cause = (cause as { cause?: unknown }).cause
  }
  return false
}

/**
 * Runs `work`, and again should the connection it was lent have been lost under it. Only for work
 * that does the same done twice (a read, a BEGIN, an insert that keeps the first): pooled
 * connections the server ended a moment ago may be lent out before their end is heard, and the
 * first statement on each fails; the pool drops each one, so a try soon gets a new connection. A
 * connection that could not be opened at all (refused, or not within the pool's time) is not
 * tried again: the database is away, and the caller says so at once.
 */
export async function againIfConnectionLost<T>(work: () => Promise<T>): Promise<T> {
  // Every idle connection of the pool may have been ended at once: each try drops one.
  for (let tries = 1; ; tries += 1) {
    try {
      return await work()
    } catch (error) {
      if (tries >= LOST_TRIES || !isStoreUnreachable(error) || !lostOnTheWay(error)) throw error
    }
  }
}

/** Tries of work whose connection was lost on the way: the pool's default size, and one more. */
const LOST_TRIES = 11

/** An open connection's end (reset, ended by the server), not a new one's failure. */
function lostOnTheWay(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string') return ['ECONNRESET', 'EPIPE', '57P01'].includes(code)
  // pg says "Connection terminated due to connection timeout" of one that never opened.
  return (
    typeof message === 'string' &&
    message.includes('Connection terminated') &&
    !message.includes('connection timeout')
  )
}

/** How long a client told that the store is away should wait before it tries again (seconds). */
export const STORE_RETRY_AFTER_SECONDS = 5

/** What a person or a client is told while the store is away, in one sentence. */
export const STORE_AWAY_WORDS =
  'The connector’s database cannot be reached for a moment: nothing was done or changed. ' +
  `Try again in ${STORE_RETRY_AFTER_SECONDS} seconds.`

/** The OAuth error body of an answer while the store is away (RFC 6749's error for it). */
export const storeAwayError = (description = STORE_AWAY_WORDS) => ({
  error: 'temporarily_unavailable',
  error_description: description,
})
