import type { UpstreamConfig } from '../../config/config.js'
import { fix, ok, type Finding } from './findings.js'

/** How long each endpoint may take to answer. */
export const REACHABLE_WITHIN_MS = 5_000

/**
 * Whether each of the provider's other endpoints answers from this machine, within the bound:
 * any HTTP answer will do (an API base answers 401 or 404 to a bare GET), since what is checked is
 * the way there (DNS, a firewall, an outbound proxy), not the endpoint's behaviour.
 */
export async function endpointFindings(upstream: UpstreamConfig): Promise<Finding[]> {
  const endpoints = new Map<string, string>([
    [upstream.authorizationUrl, 'UPSTREAM_AUTHORIZATION_URL'],
    [upstream.revocationUrl, 'UPSTREAM_REVOCATION_URL'],
    [upstream.userinfoUrl, 'UPSTREAM_USERINFO_URL'],
    [upstream.apiBase.tasks, 'UPSTREAM_TASKS_URL'],
    [upstream.apiBase.search, 'UPSTREAM_SEARCH_URL'],
    [upstream.apiBase.analytics, 'UPSTREAM_ANALYTICS_URL'],
  ])
  if (!endpoints.has(upstream.apiBase.analyticsAdmin))
    endpoints.set(upstream.apiBase.analyticsAdmin, 'UPSTREAM_ANALYTICS_ADMIN_URL')
  const failures = await Promise.all(
    [...endpoints].map(async ([url, variable]) => {
      const why = await unreachable(url)
      return why === undefined
        ? undefined
        : fix(`${variable} ${url} cannot be reached from here: ${why}`)
    }),
  )
  const found = failures.filter((failure) => failure !== undefined)
  if (found.length) return found
  return [ok(`the provider's other ${endpoints.size} endpoints answer from here`)]
}

/** Why `url` gives no HTTP answer within the bound; undefined when it answers. */
async function unreachable(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(REACHABLE_WITHIN_MS),
    })
    await response.body?.cancel()
    return undefined
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      return `no answer within ${REACHABLE_WITHIN_MS / 1000} s`
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return cause?.code ?? cause?.message ?? (error as Error).message
  }
}
