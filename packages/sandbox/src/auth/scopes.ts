import { invalidArgument } from '../http/errors.js'

/** The short scope names, by API. Reads accept the read-only scope or the full one. */
export const API_SCOPES = {
  tasks: { read: ['tasks.readonly', 'tasks'], write: ['tasks'] },
  webmasters: { read: ['webmasters.readonly', 'webmasters'], write: ['webmasters'] },
  analytics: { read: ['analytics.readonly', 'analytics'], write: ['analytics'] },
} as const

export type Api = keyof typeof API_SCOPES
export type Access = 'read' | 'write'

/** Identity only: userinfo, no API. Standard, so never prefixed. */
export const IDENTITY_SCOPE = 'openid'

export const SHORT_SCOPES: readonly string[] = [
  IDENTITY_SCOPE,
  'tasks',
  'tasks.readonly',
  'webmasters',
  'webmasters.readonly',
  'analytics.readonly',
]

/**
 * Turns a requested scope string (full identifiers, or bare short names as a convenience)
 * into short names. Unknown scopes are refused with a message naming them.
 */
export function parseScopes(requested: string, prefix: string): string[] {
  const names = new Set<string>()
  for (const item of requested.split(/\s+/).filter(Boolean)) {
    const short = item.startsWith(prefix) ? item.slice(prefix.length) : item
    if (!SHORT_SCOPES.includes(short)) {
      throw invalidArgument(
        `Unknown scope "${item}". Known scopes: ${SHORT_SCOPES.map((s) => fullScope(s, prefix)).join(' ')}.`,
      )
    }
    names.add(short)
  }
  return [...names]
}

export const fullScope = (short: string, prefix: string) =>
  short === IDENTITY_SCOPE ? short : prefix + short
