import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { DEFAULT_SCOPE_PREFIX } from '../core/config.js'

/**
 * The sandbox's environment variables, declared once (docs/sandbox.md, "Running it"): each
 * one's default, what a value must be, and its words, from which `npm run docs:config` writes
 * the sandbox's tables. The connector reads some of the same names to find the sandbox; the two
 * agree by configuration, not by shared code (test/docs/configuration.test.ts holds it).
 */

type Environment = Record<string, string | undefined>

/** What a value must be: "NAME must be ..." in an error, and what the docs say it holds. */
interface Kind<T> {
  readonly must: string
  read(raw: string): T | undefined
}

interface Variable<T, Default extends T | undefined> {
  readonly name: string
  readonly kind: Kind<T>
  /** The value when unset or empty; undefined leaves it unset, and `unset` says what that does. */
  readonly fallback: Default
  readonly unset?: string
  /** One line: what it is for. */
  readonly summary: string
  /** What else docs/operations.md's table says of it, after the summary. */
  readonly details?: string
}

const port: Kind<number> = {
  must: 'a port number from 0 to 65535',
  read(raw) {
    const value = Number(raw)
    return Number.isInteger(value) && value >= 0 && value <= 65_535 ? value : undefined
  },
}

const bindAddress: Kind<string> = {
  must: 'an IP address or a host name to bind to, such as 127.0.0.1 or 0.0.0.0',
  read: (raw) =>
    isIP(raw) !== 0 || /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(raw)
      ? raw
      : undefined,
}

/** Links are built on it, so an origin alone, without a trailing slash. */
const origin: Kind<string> = {
  must: 'an http(s) origin (scheme, host and port, no path), such as http://sandbox.internal',
  read(raw) {
    const url = URL.parse(raw)
    const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username
    return bare && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : undefined
  },
}

const text = (must: string): Kind<string> => ({ must, read: (raw) => raw })

function variable<T, D extends T | undefined>(
  name: string,
  declaration: Omit<Variable<T, D>, 'name'>,
): Variable<T, D> {
  return { name, ...declaration }
}

export const SANDBOX_VARIABLES = {
  SANDBOX_PORT: variable('SANDBOX_PORT', {
    kind: port,
    fallback: 8081,
    summary: "The sandbox's port (`0` picks a free one).",
  }),
  SANDBOX_GOOGLE_PORT: variable('SANDBOX_GOOGLE_PORT', {
    kind: port,
    fallback: 8082,
    summary: "The port of the sandbox's Google dialect (`0` picks a free one).",
  }),
  SANDBOX_HOST: variable('SANDBOX_HOST', {
    kind: bindAddress,
    fallback: '127.0.0.1',
    summary: 'The address both origins bind to.',
    details: 'Loopback unless told otherwise, since its control API has no authentication.',
  }),
  DATA_DIR: variable('DATA_DIR', {
    kind: text('a folder'),
    fallback: './data',
    summary: "The sandbox's database is `DATA_DIR/sandbox/sandbox.db`.",
    details: 'Shared with the connector, which keeps its own files beside `sandbox/`.',
  }),
  SANDBOX_PUBLIC_URL: variable('SANDBOX_PUBLIC_URL', {
    kind: origin,
    fallback: undefined,
    unset: '`http://SANDBOX_HOST:SANDBOX_PORT`',
    summary: "The sandbox's external origin, used in its metadata and every link.",
    details:
      'The connector reaches the sandbox there. Its host and `SANDBOX_GOOGLE_PUBLIC_URL`’s are ' +
      'the only ones, besides loopback, that the sandbox answers to.',
  }),
  SANDBOX_GOOGLE_PUBLIC_URL: variable('SANDBOX_GOOGLE_PUBLIC_URL', {
    kind: origin,
    fallback: undefined,
    unset: '`http://SANDBOX_HOST:SANDBOX_GOOGLE_PORT`',
    summary: "Its Google dialect's external origin: its issuer and selfLinks.",
  }),
  SANDBOX_SCOPE_PREFIX: variable('SANDBOX_SCOPE_PREFIX', {
    kind: text('a prefix'),
    fallback: DEFAULT_SCOPE_PREFIX,
    summary: 'The full scope identifier is this prefix plus the short name.',
    details: '`npm start` gives the connector the same prefix.',
  }),
}

/** The variable's value, its fallback when unset; or an error that names it and says what it must be. */
function read<T, D extends T | undefined>(env: Environment, variable: Variable<T, D>): T | D {
  const raw = env[variable.name]
  if (raw === undefined || raw === '') return variable.fallback
  const value = variable.kind.read(raw)
  if (value === undefined)
    throw new Error(`${variable.name} must be ${variable.kind.must}, not "${raw}".`)
  return value
}

/** The sandbox's settings as `npm run sandbox` takes them from the environment. */
export function sandboxEnvironment(env: Environment = process.env) {
  const v = SANDBOX_VARIABLES
  return {
    port: read(env, v.SANDBOX_PORT),
    googlePort: read(env, v.SANDBOX_GOOGLE_PORT),
    host: read(env, v.SANDBOX_HOST),
    dataDir: resolve(read(env, v.DATA_DIR)),
    publicUrl: read(env, v.SANDBOX_PUBLIC_URL),
    googlePublicUrl: read(env, v.SANDBOX_GOOGLE_PUBLIC_URL),
    scopePrefix: read(env, v.SANDBOX_SCOPE_PREFIX),
  }
}
