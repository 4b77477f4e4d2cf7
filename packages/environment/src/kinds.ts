import { isIP } from 'node:net'
import { Refusal, type Kind } from './variable.js'

/** What the programs' variables hold: each says what a value must be, in an error and the docs. */

export const port: Kind<number> = {
  must: 'a port number from 0 to 65535',
  read(raw) {
    const value = Number(raw)
    return Number.isInteger(value) && value >= 0 && value <= 65_535 ? value : undefined
  },
}

/** A count from `min` to `max`, in digits alone: no sign, no decimals, no exponent. */
export function wholeNumber(min: number, max: number, of: string): Kind<number> {
  return {
    must: `a whole number ${of} from ${min} to ${max}`,
    read(raw) {
      const value = /^\d+$/.test(raw) ? Number(raw) : NaN
      return value >= min && value <= max ? value : undefined
    },
  }
}

/** `1` or `0`, nothing else: a typo never silently means one or the other. */
export const flag: Kind<boolean> = {
  must: '1 (on) or 0 (off)',
  read: (raw) => (raw === '1' ? true : raw === '0' ? false : undefined),
  show: (value) => (value ? '1' : '0'),
}

export function oneOf<const T extends string>(values: readonly T[]): Kind<T> {
  return {
    must: `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`,
    read: (raw) => values.find((value) => value === raw),
  }
}

/** Any text: what it must be is checked where it is used (the store, the vault). */
export function text(must: string): Kind<string> {
  return { must, read: (raw) => raw }
}

export const httpUrl: Kind<string> = {
  must: 'an http(s) URL',
  read(raw) {
    const url = URL.parse(raw)
    return url && (url.protocol === 'https:' || url.protocol === 'http:') ? raw : undefined
  },
}

/**
 * An origin, read without a trailing slash: a program's links, issuer and redirect URIs are built
 * on it, and it serves every path at its root. `example` is shown in the error and the docs.
 */
export function originSuchAs(example: string): Kind<string> {
  return {
    must: `an http(s) origin such as ${example}`,
    read(raw) {
      const url = URL.parse(raw)
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined
      if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username)
        return new Refusal(`an origin only (scheme, host and port, no path), such as ${example}`)
      return url.origin
    },
  }
}

export const bindAddress: Kind<string> = {
  must: 'an IP address or a host name to bind to, such as 127.0.0.1 or 0.0.0.0',
  read: (raw) =>
    isIP(raw) !== 0 || /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(raw)
      ? raw
      : undefined,
}

/** A bearer token shorter than this is too easy to guess. */
const MIN_TOKEN_LENGTH = 16

/** A secret a client sends as `Authorization: Bearer <token>`: one header word, hard to guess. */
export const bearerToken: Kind<string> = {
  must: 'printable ASCII without spaces (it is sent as "Authorization: Bearer <token>")',
  read(raw) {
    if (!/^[\x21-\x7e]+$/.test(raw)) return undefined
    if (raw.length < MIN_TOKEN_LENGTH)
      return new Refusal(`at least ${MIN_TOKEN_LENGTH} characters long`)
    return raw
  },
  hint: 'Generate one with `openssl rand -hex 32`.',
}
