import type { ConnectorHarness } from './connector.js'

/** One request the sandbox received, as its control API logs it (path without query string). */
export interface ProviderRequest {
  method: string
  path: string
  status: number
}

/**
 * The requests to one of the sandbox's APIs (`/tasks/v1`, `/search/v1`, …) since `from`, an index
 * into its request log (`next` is the index to pass next time), and the writes among them: what
 * a test checks was, or was not, sent upstream.
 */
export async function providerRequests(
  suite: Pick<ConnectorHarness, 'sandboxRequest'>,
  api: string,
  from = 0,
) {
  const res = await suite.sandboxRequest('GET', '/_sandbox/requests')
  const log = res.body as ProviderRequest[]
  const calls = log.slice(from).filter((entry) => entry.path.startsWith(`${api}/`))
  return { next: log.length, calls, writes: calls.filter((entry) => entry.method !== 'GET') }
}
