import { readRequestLog, type LoggedRequest } from '@countersign/sandbox/testing'
import type { ServiceName } from '../../src/services/catalog.js'
import type { ProfileName } from '../../src/services/profiles/index.js'
import type { ConnectorHarness } from './connector.js'

/** One request the sandbox received, its dialect named as the profile that speaks it. */
export type ProviderRequest = LoggedRequest

/** The sandbox's request log, oldest first. */
export async function providerLog(
  suite: Pick<ConnectorHarness, 'sandboxRequest'>,
): Promise<ProviderRequest[]> {
  return readRequestLog((await suite.sandboxRequest('GET', '/_sandbox/requests')).body)
}

/**
 * Where each service's API lives on the sandbox, in each profile's dialect (docs/sandbox.md, "Base
 * URLs" and "Paths").
 */
const API_PATHS: Record<ProfileName, Record<ServiceName, readonly string[]>> = {
  generic: { tasks: ['/tasks/v1/'], search: ['/search/v1/'], analytics: ['/analytics/v1/'] },
  google: {
    tasks: ['/tasks/v1/'],
    search: ['/webmasters/v3/', '/v1/urlInspection/'],
    analytics: ['/v1beta/'],
  },
}

/**
 * The requests the connector made to one service's API, in the dialect of the suite's profile,
 * since `from`, an index into the sandbox's request log (`next` is the index to pass next time),
 * and the writes among them: what a test checks was, or was not, sent upstream.
 */
export async function providerRequests(
  suite: Pick<ConnectorHarness, 'sandboxRequest' | 'profile'>,
  service: ServiceName,
  from = 0,
) {
  const log = await providerLog(suite)
  const paths = API_PATHS[suite.profile][service]
  // The sandbox names each of its dialects as the profile that speaks it.
  const calls = log
    .slice(from)
    .filter(
      (entry) => entry.dialect === suite.profile && paths.some((p) => entry.path.startsWith(p)),
    )
  return { next: log.length, calls, writes: calls.filter((entry) => entry.method !== 'GET') }
}
