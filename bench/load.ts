import autocannon from 'autocannon'

/** One request, sent again and again by `load`. */
export interface Target {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  /** Whether an answer is the success it should be; every one is checked. */
  ok: (body: string) => boolean
}

/**
 * Requests per second at `connections` concurrent connections for `seconds` (autocannon). Every
 * answer must be a 2xx whose body `ok` accepts: anything else fails the benchmark, so that a
 * fast error is never counted as a fast success.
 */
export async function load(target: Target, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
    verifyBody: target.ok,
  })
  const failed = result.errors + result.timeouts + result.non2xx + result.mismatches
  if (failed > 0)
    throw new Error(
      `${target.method} ${new URL(target.url).pathname}: ${failed} of ${result.requests.total} answers were not successes ` +
        `(errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, wrong body ${result.mismatches})`,
    )
  return result.requests.total / result.duration
}

/** Sends the target once, as `load` does, and returns its body: for a check before loading. */
export async function once(target: Target): Promise<string> {
  const res = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    body: target.body,
  })
  const text = await res.text()
  if (!res.ok || !target.ok(text))
    throw new Error(
      `${target.method} ${new URL(target.url).pathname}: ${res.status} ${text.slice(0, 300)}`,
    )
  return text
}
