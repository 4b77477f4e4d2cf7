import type { LoggedRequest } from '../../src/core/request-log.js'
import { dialectFromWire } from '../../src/core/wire-dialect.js'
import type { sandboxForSuite } from './sandbox.js'

export type { LoggedRequest }

/**
 * The body of `GET /_sandbox/requests`, each dialect by the code's name: the tests speak
 * `generic`, whatever the wire calls it.
 */
export function readRequestLog(body: unknown): LoggedRequest[] {
  return (body as (Omit<LoggedRequest, 'dialect'> & { dialect: string })[]).map((entry) => ({
    ...entry,
    dialect: dialectFromWire.parse(entry.dialect),
  }))
}

/** The sandbox's request log from `since` (an earlier length) on. */
export async function requestsSince(
  sandbox: Pick<ReturnType<typeof sandboxForSuite>, 'request'>,
  since: number,
): Promise<LoggedRequest[]> {
  return readRequestLog((await sandbox.request('GET', '/_sandbox/requests')).body).slice(since)
}
