import { notFound } from '../http/errors.js'

/**
 * Google's paths (docs/sandbox.md, "Paths") and the generic dialect's path of the same operation,
 * which the core serves. Path segments are compared decoded, so both encodeURIComponent and RFC
 * 6570 (`%40default`, `%21`, `%28`) spellings match; `{name}` takes one whole segment,
 * `{name}:verb` a segment that ends with Google's custom method.
 */
const ROUTES: [method: string, google: string, generic: string][] = [
  ['GET', '/tasks/v1/users/@me/lists', '/tasks/v1/lists'],
  ['POST', '/tasks/v1/users/@me/lists', '/tasks/v1/lists'],
  ['GET', '/tasks/v1/users/@me/lists/{tasklist}', '/tasks/v1/lists/{tasklist}'],
  ['POST', '/tasks/v1/lists/{tasklist}/clear', '/tasks/v1/lists/{tasklist}/clear'],
  ['GET', '/tasks/v1/lists/{tasklist}/tasks', '/tasks/v1/lists/{tasklist}/tasks'],
  ['POST', '/tasks/v1/lists/{tasklist}/tasks', '/tasks/v1/lists/{tasklist}/tasks'],
  ['GET', '/tasks/v1/lists/{tasklist}/tasks/{task}', '/tasks/v1/lists/{tasklist}/tasks/{task}'],
  ['PATCH', '/tasks/v1/lists/{tasklist}/tasks/{task}', '/tasks/v1/lists/{tasklist}/tasks/{task}'],
  ['DELETE', '/tasks/v1/lists/{tasklist}/tasks/{task}', '/tasks/v1/lists/{tasklist}/tasks/{task}'],
  [
    'POST',
    '/tasks/v1/lists/{tasklist}/tasks/{task}/move',
    '/tasks/v1/lists/{tasklist}/tasks/{task}/move',
  ],
  ['GET', '/webmasters/v3/sites', '/search/v1/sites'],
  ['GET', '/webmasters/v3/sites/{siteUrl}', '/search/v1/sites/{siteUrl}'],
  ['GET', '/webmasters/v3/sites/{siteUrl}/sitemaps', '/search/v1/sites/{siteUrl}/sitemaps'],
  [
    'GET',
    '/webmasters/v3/sites/{siteUrl}/sitemaps/{feedpath}',
    '/search/v1/sites/{siteUrl}/sitemaps/{feedpath}',
  ],
  [
    'PUT',
    '/webmasters/v3/sites/{siteUrl}/sitemaps/{feedpath}',
    '/search/v1/sites/{siteUrl}/sitemaps/{feedpath}',
  ],
  [
    'POST',
    '/webmasters/v3/sites/{siteUrl}/searchAnalytics/query',
    '/search/v1/sites/{siteUrl}/search-analytics',
  ],
  ['POST', '/v1/urlInspection/index:inspect', '/search/v1/inspect-url'],
  ['GET', '/v1beta/properties/{property}/metadata', '/analytics/v1/properties/{property}/metadata'],
  ['POST', '/v1beta/properties/{property}:runReport', '/analytics/v1/properties/{property}/report'],
  [
    'POST',
    '/v1beta/properties/{property}:runRealtimeReport',
    '/analytics/v1/properties/{property}/realtime-report',
  ],
  [
    'POST',
    '/v1beta/properties/{property}:batchRunReports',
    '/analytics/v1/properties/{property}/reports',
  ],
  // The Analytics Admin API's, at its own host (analyticsadmin.googleapis.com) at Google.
  ['GET', '/v1beta/accountSummaries', '/analytics/v1/accountSummaries'],
]

export interface GoogleRoute {
  /** The same operation at the generic dialect's path, each parameter encoded as one segment. */
  genericPath: string
  /** A Data or Admin API call of analytics: Google's client may send and want enums as numbers. */
  analytics: boolean
}

type Segment = { literal: string } | { param: string; verb?: string }

const compiled = ROUTES.map(([method, google, generic]) => ({
  method,
  segments: google
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const param = /^\{(\w+)\}(?::(\w+))?$/.exec(part)
      return param ? { param: param[1]!, verb: param[2] } : { literal: part }
    }),
  generic,
  analytics: google.startsWith('/v1beta/'),
}))

/** The parameters of a decoded path, if it has the template's shape. */
function matchSegments(
  template: Segment[],
  segments: string[],
): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of template.entries()) {
    const segment = segments[i]!
    if ('literal' in part) {
      if (segment !== part.literal) return undefined
      continue
    }
    const value = part.verb ? withoutVerb(segment, part.verb) : segment
    if (!value) return undefined
    params[part.param] = value
  }
  return params
}

const withoutVerb = (segment: string, verb: string) =>
  segment.endsWith(`:${verb}`) ? segment.slice(0, -verb.length - 1) : undefined

/**
 * The core's route for a request to Google's path, or Google's 404: for a path it does not
 * serve, or for a method its path does not take (naming the ones it does).
 */
export function googleRoute(method: string, rawPath: string): GoogleRoute {
  // The origin's middleware has already refused invalid percent-encoding.
  const segments = rawPath.split('/').slice(1).map(decodeURIComponent)
  const allowed: string[] = []
  for (const route of compiled) {
    const params = matchSegments(route.segments, segments)
    if (!params) continue
    if (route.method !== method) {
      allowed.push(route.method)
      continue
    }
    const genericPath = route.generic.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(params[name]!),
    )
    return { genericPath, analytics: route.analytics }
  }
  throw notFound(
    allowed.length
      ? `${method} is not a method of ${rawPath.slice(0, 200)}: it takes ${allowed.join(', ')}.`
      : `No such resource: ${method} ${rawPath.slice(0, 200)}.`,
  )
}
