import { resolve } from 'node:path'
import {
  bindAddress,
  declareVariables,
  originSuchAs,
  port,
  read,
  text,
  type Environment,
} from '@countersign/environment'
import { DEFAULT_SCOPE_PREFIX } from '../core/config.js'

/**
 * The sandbox's environment variables, declared once (docs/sandbox.md, "Running it"): each
 * one's default, what a value must be, and its words, from which `npm run docs:config` writes
 * the sandbox's tables. The connector reads some of the same names to find the sandbox: both read
 * through @countersign/environment, and each declares its own (test/docs/configuration.test.ts
 * holds that they agree).
 */

/** Links are built on it, so an origin alone, without a trailing slash. */
const origin = originSuchAs('http://sandbox.internal')

export const SANDBOX_VARIABLES = declareVariables({
  SANDBOX_PORT: {
    kind: port,
    fallback: 8081,
    summary: "The sandbox's port (`0` picks a free one).",
  },
  SANDBOX_GOOGLE_PORT: {
    kind: port,
    fallback: 8082,
    summary: "The port of the sandbox's Google dialect (`0` picks a free one).",
  },
  SANDBOX_HOST: {
    kind: bindAddress,
    fallback: '127.0.0.1',
    summary: 'The address both origins bind to.',
    details: 'Loopback unless told otherwise, since its control API has no authentication.',
  },
  DATA_DIR: {
    kind: text('a folder'),
    fallback: './data',
    summary: "The sandbox's database is `DATA_DIR/sandbox/sandbox.db`.",
    details: 'Shared with the connector, which keeps its own files beside `sandbox/`.',
  },
  SANDBOX_PUBLIC_URL: {
    kind: origin,
    fallback: undefined,
    unset: '`http://SANDBOX_HOST:SANDBOX_PORT`',
    summary: "The sandbox's external origin, used in its metadata and every link.",
    details:
      'The connector reaches the sandbox there. Its host and `SANDBOX_GOOGLE_PUBLIC_URL`’s are ' +
      'the only ones, besides loopback, that the sandbox answers to.',
  },
  SANDBOX_GOOGLE_PUBLIC_URL: {
    kind: origin,
    fallback: undefined,
    unset: '`http://SANDBOX_HOST:SANDBOX_GOOGLE_PORT`',
    summary: "Its Google dialect's external origin: its issuer and selfLinks.",
  },
  SANDBOX_SCOPE_PREFIX: {
    kind: text('a prefix'),
    fallback: DEFAULT_SCOPE_PREFIX,
    summary: 'The full scope identifier is this prefix plus the short name.',
    details: '`npm start` gives the connector the same prefix.',
  },
})

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
