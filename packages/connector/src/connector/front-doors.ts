import { AS_METADATA_PATH, DISCOVERY_PATH, OAUTH_PATH_PREFIX, ROUTES } from '../auth/provider.js'
import { RESOURCE_METADATA_CACHE, resourceMetadataPath } from '../mcp/resource-metadata.js'
import { ACTIVITY_PATH } from '../pages/activity-page.js'
import { APP_FILES_CACHE, ICONS_PATH, MANIFEST_PATH } from '../pages/app-manifest.js'
import { APPROVALS_PATH } from '../pages/approvals-page.js'
import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import { PAGE_HEADERS } from '../pages/page.js'
import { PUSH_SCRIPT_PATH, SCRIPTS_CACHE, SERVICE_WORKER_PATH } from '../pages/push-scripts.js'
import { SERVICE_NAMES } from '../services/catalog.js'
import { CALLBACK_PATH } from '../upstream/redirect-uri.js'

/**
 * Every path the connector answers, who answers it, and what its answers tell a browser
 * (docs/operations.md, "Behind a reverse proxy"). The server sends each request by this table
 * (server.ts): to oidc-provider, the authorization server, or to the connector's own app.
 * No door may be framed, and none is sniffed: every answer carries COMMON_HEADERS (server.ts).
 * packages/connector/test/connector/front-doors.test.ts knocks on each door and reads its headers.
 */
export interface FrontDoor {
  /** What it is, in a few words. */
  what: string
  /** Its paths: each exact, or ending in `*` for every path under it. */
  paths: readonly string[]
  answeredBy: 'authorization server' | 'connector'
  /**
   * Who calls it: the person's browser (`page`: a page, or a file a page loads), a program
   * (`endpoint`), an MCP client (`mcp`), or a health probe (`probe`).
   */
  caller: 'page' | 'endpoint' | 'mcp' | 'probe'
  /**
   * CORS for a program in a web page of any origin: `any origin` is the connector's own
   * (http/cors.ts: `*`, only where no cookie counts, only a bearer token or the client's own
   * credentials); `oidc-provider` is its own, which names the page's origin; `none`.
   */
  cors: 'any origin' | 'oidc-provider' | 'none'
  /** Cache-Control of its successful answers, where the connector sets one. */
  cache?: string
}

export const FRONT_DOORS: readonly FrontDoor[] = [
  {
    what: "the authorization server's metadata (RFC 8414, and OpenID discovery)",
    paths: [AS_METADATA_PATH, DISCOVERY_PATH],
    answeredBy: 'authorization server',
    caller: 'endpoint',
    cors: 'any origin',
  },
  {
    what: 'client registration (RFC 7591, and reading it: RFC 7592), tokens and revocation',
    paths: [ROUTES.registration, `${ROUTES.registration}/*`, ROUTES.token, ROUTES.revocation],
    answeredBy: 'authorization server',
    caller: 'endpoint',
    cors: 'any origin',
    cache: 'no-store',
  },
  {
    what: "the authorization server's public keys",
    paths: [ROUTES.jwks],
    answeredBy: 'authorization server',
    caller: 'endpoint',
    cors: 'oidc-provider',
  },
  {
    what: 'the authorization endpoint and the rest of the authorization server',
    paths: [`${OAUTH_PATH_PREFIX}*`],
    answeredBy: 'authorization server',
    caller: 'endpoint',
    cors: 'none',
  },
  {
    what: 'the MCP endpoints, one a service',
    paths: SERVICE_NAMES.map((service) => `/${service}/mcp`),
    answeredBy: 'connector',
    caller: 'mcp',
    cors: 'any origin',
  },
  {
    what: "each MCP endpoint's protected resource metadata (RFC 9728)",
    paths: SERVICE_NAMES.map(resourceMetadataPath),
    answeredBy: 'connector',
    caller: 'endpoint',
    cors: 'any origin',
    cache: RESOURCE_METADATA_CACHE,
  },
  {
    what: "the person's pages: home, consent, the provider's return, connections, approvals, activity",
    paths: [
      '/',
      '/consent/*',
      CALLBACK_PATH,
      CONNECTIONS_PATH,
      `${CONNECTIONS_PATH}/*`,
      APPROVALS_PATH,
      `${APPROVALS_PATH}/*`,
      ACTIVITY_PATH,
      `${ACTIVITY_PATH}/*`,
    ],
    answeredBy: 'connector',
    caller: 'page',
    cors: 'none',
    cache: PAGE_HEADERS['Cache-Control'],
  },
  {
    what: "the pages' app manifest and icons",
    paths: [MANIFEST_PATH, `${ICONS_PATH}/*`],
    answeredBy: 'connector',
    caller: 'page',
    cors: 'none',
    cache: APP_FILES_CACHE,
  },
  {
    what: "the pages' script and the notifications' service worker",
    paths: [PUSH_SCRIPT_PATH, SERVICE_WORKER_PATH],
    answeredBy: 'connector',
    caller: 'page',
    cors: 'none',
    cache: SCRIPTS_CACHE,
  },
  {
    what: 'liveness and readiness',
    paths: ['/healthz', '/readyz'],
    answeredBy: 'connector',
    caller: 'probe',
    cors: 'none',
  },
]

/**
 * The door of a path: an exact path first, else the longest `*` path it falls under; undefined
 * for a path no door has (the connector's app answers 404).
 */
export function frontDoors(doors: readonly FrontDoor[] = FRONT_DOORS) {
  const exact = new Map<string, FrontDoor>()
  const under: [prefix: string, door: FrontDoor][] = []
  for (const door of doors) {
    for (const path of door.paths) {
      if (path.endsWith('*')) under.push([path.slice(0, -1), door])
      else exact.set(path, door)
    }
  }
  under.sort(([a], [b]) => b.length - a.length)
  return (path: string): FrontDoor | undefined =>
    exact.get(path) ?? under.find(([prefix]) => path.startsWith(prefix))?.[1]
}
