import { pathToFileURL } from 'node:url'
import {
  CONNECTOR_VARIABLES,
  REQUIRED_BY_PROFILE,
  UPSTREAM_VARIABLES,
} from '../packages/connector/src/config/variables.js'
import { SERVICES } from '../packages/connector/src/services/catalog.js'
import { GOOGLE_APIS, GOOGLE_PROFILE } from '../packages/connector/src/services/profiles/google.js'
import { redirectUriOf } from '../packages/connector/src/upstream/redirect-uri.js'
import { IDENTITY_SCOPE } from '../packages/connector/src/upstream/sign-in.js'
import { SANDBOX_VARIABLES } from '../packages/sandbox/src/cli/env.js'
import { code, renderedPages, table, writePages, type DocTables } from './generated-docs.js'

export { pagePath } from './generated-docs.js'

/**
 * The configuration tables of the docs, written from the declarations of the variables
 * (packages/connector/src/config/variables.ts, packages/sandbox/src/cli/env.ts), as
 * docs/tools.md is from the tool definitions: `npm run docs:config` rewrites each table between
 * its markers (generated-docs.ts), and test/docs/configuration.test.ts fails when a checked-in
 * page differs.
 */

/** A variable as the tables read it: the connector's and the sandbox's declarations alike. */
export interface Declared {
  name: string
  kind: { must: string; show?(value: never): string }
  fallback: unknown
  unset?: string
  summary: string
  details?: string
  required?: boolean
}

/** Each page, and its tables by marker name. */
export const PAGES: DocTables['pages'] = {
  'docs/operations.md': {
    connector: () => fullTable(connectorRows()),
    sandbox: () => fullTable(Object.values(SANDBOX_VARIABLES)),
    upstream: upstreamTable,
    google: googleTable,
  },
  'docs/sandbox.md': {
    sandbox: () => shortTable(Object.values(SANDBOX_VARIABLES)),
  },
  // The values a newcomer pastes into Google's console, from what the connector sends.
  'docs/google.md': {
    'google-redirect': googleRedirectTable,
    'google-apis': googleApisTable,
    'google-scopes': googleScopesTable,
  },
}

const CONFIG_TABLES: DocTables = {
  kind: 'config',
  from: 'the declarations of the variables',
  pages: PAGES,
}

/** Each page as `npm run docs:config` writes it: its tables rendered, then formatted. */
export const configDocs = () => renderedPages(CONFIG_TABLES)

/** The connector's own variables, with the provider's summed up in one row. */
function connectorRows(): Declared[] {
  const rows: Declared[] = Object.values(CONNECTOR_VARIABLES)
  const at = rows.findIndex((v) => v.name === 'UPSTREAM_PROFILE') + 1
  return [...rows.slice(0, at), UPSTREAM_ROW, ...rows.slice(at)]
}

const UPSTREAM_ROW: Declared = {
  name: 'UPSTREAM_*',
  kind: { must: '' },
  fallback: undefined,
  unset: 'the built-in sandbox',
  summary:
    'The real provider: see [Pointing it at a real provider](#pointing-it-at-a-real-provider).',
  details: 'Setting any of them means all the required ones must be set.',
}

function fullTable(variables: readonly Declared[]): string {
  return table(
    ['variable', 'default', 'value', 'meaning'],
    variables.map((v) => [
      code(v.name),
      defaultOf(v) ?? '',
      v.kind.must,
      [v.summary, v.details].filter(Boolean).join(' '),
    ]),
  )
}

function shortTable(variables: readonly Declared[]): string {
  return table(
    ['variable', 'default', 'meaning'],
    variables.map((v) => [code(v.name), defaultOf(v) ?? '', v.summary]),
  )
}

function upstreamTable(): string {
  return table(
    ['variable', 'required', 'unset', 'meaning'],
    Object.values(UPSTREAM_VARIABLES).map((v: Declared) => [
      code(v.name),
      v.required ? 'yes' : 'no',
      v.required ? '' : (defaultOf(v) ?? ''),
      [v.summary, v.details].filter(Boolean).join(' '),
    ]),
  )
}

/** What the Google profile needs from the operator: only its client. */
const GOOGLE_OWN: Readonly<Record<string, string>> = {
  UPSTREAM_CLIENT_ID: '(your Google Cloud OAuth client, type Web application)',
  UPSTREAM_CLIENT_SECRET: '(its secret)',
}

function googleTable(): string {
  const defaults: Readonly<Record<string, string | undefined>> = GOOGLE_PROFILE.defaults
  const needed = (v: Declared) =>
    (REQUIRED_BY_PROFILE.google as readonly string[]).includes(v.name) ||
    (v.required === true && defaults[v.name] === undefined)
  const rows = Object.values(UPSTREAM_VARIABLES).sort((a, b) => +needed(b) - +needed(a))
  return table(
    ['variable', 'required', 'Google default'],
    rows.map((v) => [
      code(v.name),
      needed(v) ? 'yes' : 'no',
      defaults[v.name] !== undefined ? code(defaults[v.name]!) : (GOOGLE_OWN[v.name] ?? ''),
    ]),
  )
}

function googleRedirectTable(): string {
  const trial = `http://127.0.0.1:${CONNECTOR_VARIABLES.PORT.fallback}`
  const server = 'https://connector.example.com'
  return table(
    ['where the connector runs', '`PUBLIC_URL`', 'redirect URI to register'],
    [
      ['on your own machine, to try it', code(trial), code(redirectUriOf(trial))],
      ['on a server, behind a TLS proxy (HTTPS)', code(server), code(redirectUriOf(server))],
    ],
  )
}

function googleApisTable(): string {
  return table(
    ['API', 'its name in the console', 'used by'],
    GOOGLE_APIS.map((api) => [
      api.title,
      `[${code(api.id)}](https://console.cloud.google.com/apis/library/${api.id})`,
      `the ${api.service} service`,
    ]),
  )
}

function googleScopesTable(): string {
  const prefix = GOOGLE_PROFILE.defaults.UPSTREAM_SCOPE_PREFIX!
  return table(
    ['scope', 'asked by', 'what the person allows'],
    [
      [
        code(IDENTITY_SCOPE),
        'every connection, and the sign-in to `/connections`',
        "who the person is (their Google account's id)",
      ],
      ...Object.values(SERVICES).flatMap((service) =>
        service.scopes.map((scope) => [
          code(prefix + scope.name),
          `the ${service.name} service`,
          scope.description,
        ]),
      ),
    ],
  )
}

/** The default as the docs show it: its words, or its value as the environment writes it. */
function defaultOf(v: Declared): string | undefined {
  if (v.unset !== undefined) return v.unset
  if (v.fallback === undefined) return undefined
  const show = (v.kind.show as ((value: unknown) => string) | undefined) ?? String
  return code(show(v.fallback))
}

// `npm run docs:config` runs this module to write the pages.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writePages(CONFIG_TABLES)
}
