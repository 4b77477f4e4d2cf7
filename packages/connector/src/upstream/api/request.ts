import type { ApiName, ServiceName } from '../../config/config.js'
import { UpstreamApiError } from './errors.js'

/**
 * The URL of a call: the service's base URL, its path template with every `{name}` replaced by
 * one percent-encoded segment, and the query.
 *
 * A parameter is always exactly one segment: `/`, `?`, `#`, `%` and `:` in it are encoded
 * (`sc-domain:example.com` -> `sc-domain%3Aexample.com`), and the values that no encoding keeps
 * a single segment (empty, `.` and `..`, which URL parsing would collapse or climb out of) are
 * refused as invalid before anything is sent. Templates are parsed once and kept.
 */

export type QueryValue = string | number | boolean | undefined

/** The APIs' base URLs: the services' own, and the Admin API's if it has one of its own. */
export type ApiBases = Record<ServiceName, string> & Partial<Record<ApiName, string>>

/** Where a request goes: the provider's origin, and the path with its query. */
export interface RequestTarget {
  origin: string
  path: string
}

/** A template as literal text and parameter names, alternating: [text, name, text, ..., text]. */
type ParsedTemplate = readonly string[]

/** Templates come from the service definitions, so there are few; this bounds a careless caller. */
const MAX_CACHED_TEMPLATES = 512
const PARAMETER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g

export class RequestTargets {
  readonly #bases: Partial<Record<ApiName, RequestTarget>>
  readonly #templates = new Map<string, ParsedTemplate>()

  /** `systemQuery`: parameters every call carries (a provider profile's: Google's prettyPrint). */
  constructor(
    apiBase: ApiBases,
    private readonly systemQuery?: Readonly<Record<string, string>>,
  ) {
    const bases: Partial<Record<ApiName, RequestTarget>> = {}
    for (const [api, base] of Object.entries(apiBase) as [ApiName, string][]) {
      bases[api] = normalizedBase(api, base)
    }
    this.#bases = bases
  }

  /**
   * The base of `api`: its origin, and its path without a trailing slash. The Admin API, unless
   * given its own, is on the analytics API's.
   */
  base(api: ApiName): RequestTarget {
    const base = this.#bases[api] ?? (api === 'analyticsAdmin' ? this.#bases.analytics : undefined)
    if (base === undefined) throw new Error(`No API base URL is configured for "${api}".`)
    return base
  }

  target(
    api: ApiName,
    template: string,
    pathParams: Record<string, string> | undefined,
    query: Record<string, QueryValue> | undefined,
  ): RequestTarget {
    const base = this.base(api)
    const parts = this.#parsed(template)
    let path = base.path + parts[0]!
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!
      const value = pathParams?.[name]
      if (value === undefined)
        throw new Error(`The path parameter "${name}" of ${template} is missing.`)
      path += segment(name, value) + parts[i + 1]!
    }
    const all = this.systemQuery ? { ...this.systemQuery, ...query } : query
    return { origin: base.origin, path: all ? path + queryString(all) : path }
  }

  #parsed(template: string): ParsedTemplate {
    let parts = this.#templates.get(template)
    if (parts) return parts
    if (!template.startsWith('/')) throw new Error(`A path template starts with "/": ${template}`)
    parts = template.split(PARAMETER)
    if (parts.some((text, i) => i % 2 === 0 && /[{}?#]/.test(text)))
      throw new Error(`Not a path template: ${template}`)
    if (this.#templates.size < MAX_CACHED_TEMPLATES) this.#templates.set(template, parts)
    return parts
  }
}

function normalizedBase(service: string, base: string): RequestTarget {
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new Error(`The API base URL of "${service}" is not a URL.`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash)
    throw new Error(`The API base URL of "${service}" must be an http(s) URL without query.`)
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') }
}

/**
 * One path segment holding `value` exactly, every reserved character percent-encoded as RFC 6570
 * does and Google's clients send (encodeURIComponent leaves `! ' ( ) *` as they are); refuses what
 * cannot be one.
 */
function segment(name: string, value: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..')
    throw invalidParameter(name, 'must be a non-empty text other than "." and ".."')
  try {
    return encodeURIComponent(value).replace(SUB_DELIMS_KEPT, percentEncoded)
  } catch {
    // A lone UTF-16 surrogate has no UTF-8 encoding.
    throw invalidParameter(name, 'is not valid Unicode text')
  }
}

const SUB_DELIMS_KEPT = /[!'()*]/g
const percentEncoded = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`

function queryString(query: Record<string, QueryValue>): string {
  let out = ''
  for (const name in query) {
    const value = query[name]
    if (value === undefined) continue
    let text: string
    try {
      text = encodeURIComponent(name) + '=' + encodeURIComponent(value)
    } catch {
      throw new UpstreamApiError(
        'invalid',
        `The query parameter "${name}" is not valid Unicode text.`,
      )
    }
    out += (out ? '&' : '?') + text
  }
  return out
}

const invalidParameter = (name: string, problem: string) =>
  new UpstreamApiError('invalid', `The path parameter "${name}" ${problem}.`)
