import { SERVICE_NAMES, type ServiceName } from '../config/config.js'

/**
 * The three services the connector serves: one MCP endpoint and one OAuth protected resource
 * each. Their tools are defined beside this file; this is what authorization needs to know. Their
 * names sit in the configuration (config/config.ts), which every part may read.
 */
export { SERVICE_NAMES, type ServiceName }

export interface ServiceScope {
  /** The seed's short name; the upstream's full identifier is its prefix followed by this. */
  name: string
  /** What a person is asked to allow, in their words. */
  description: string
}

export interface ServiceInfo {
  name: ServiceName
  /** Shown on consent and connections pages. */
  title: string
  /** The upstream API this service calls: a key of UpstreamConfig.apiBase. */
  scopes: readonly ServiceScope[]
  /** The scope that reads; every scope of the service includes it. */
  readScope: string
}

export const SERVICES: Readonly<Record<ServiceName, ServiceInfo>> = {
  tasks: {
    name: 'tasks',
    title: 'Tasks',
    readScope: 'tasks.readonly',
    scopes: [
      { name: 'tasks.readonly', description: 'See your task lists and tasks' },
      {
        name: 'tasks',
        description:
          'Create, change, move and delete your tasks and lists, each change approved by you',
      },
    ],
  },
  search: {
    name: 'search',
    title: 'Search performance',
    readScope: 'webmasters.readonly',
    scopes: [
      {
        name: 'webmasters.readonly',
        description: 'See your sites, their search performance, sitemaps and index status',
      },
      { name: 'webmasters', description: 'Submit sitemaps for your sites, each approved by you' },
    ],
  },
  analytics: {
    name: 'analytics',
    title: 'Web analytics',
    readScope: 'analytics.readonly',
    scopes: [
      { name: 'analytics.readonly', description: 'See reports on your analytics properties' },
    ],
  },
}

export const isServiceName = (value: string): value is ServiceName =>
  (SERVICE_NAMES as readonly string[]).includes(value)

/** Every short scope name a grant for `service` may hold. */
export const scopeNamesOf = (service: ServiceName) => SERVICES[service].scopes.map((s) => s.name)
