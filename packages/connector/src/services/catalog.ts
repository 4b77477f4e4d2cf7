import { SERVICE_NAMES, type ServiceName } from '../config/config.js'

/**
 * The three services the connector serves: one MCP endpoint and one OAuth protected resource
 * each. Their tools are defined beside this file; this is what authorization needs to know. Their
 * names sit in the configuration (config/config.ts), which every part may read.
 */
export { SERVICE_NAMES, type ServiceName }

export interface ServiceScope {
  /** The short name; the upstream's full identifier is its prefix followed by this. */
  name: string
  /** What a person is asked to allow, in their words. */
  description: string
}

/**
 * What a grant of a service can be narrowed to: the person's task lists, sites or properties, by
 * the provider's id. A grant covers every one, or only those the person chose; every tool input
 * field that names one is held to it before anything else (src/mcp/coverage.ts).
 */
export interface GrantedResource {
  /** One of them, and several, in the words of a person and a model: "task list", "site"... */
  noun: string
  nouns: string
  /**
   * The tool that lists those the grant covers; none where the tools' schemas name them (a
   * grant's properties: src/mcp/grant-listing.ts).
   */
  listedBy?: string
  /** The input fields of the service's tools that name one. */
  fields: readonly string[]
  /**
   * The tool whose schema names a grant's own by title (src/mcp/grant-listing.ts); the others'
   * take the same values.
   */
  titledIn: string
  /** The id a grant keeps for a field's value, where the two differ (a property's number). */
  idOf?: (value: string) => string
  /** The other way: what a field takes for an id the grant keeps. */
  valueOfId?: (id: string) => string
}

/** At most this many of a grant's lists, sites or properties are named in a tool's schema. */
export const NAMED_IN_SCHEMA = 50

export interface ServiceInfo {
  name: ServiceName
  /** Shown on consent and connections pages. */
  title: string
  resource: GrantedResource
  /** The upstream API this service calls: a key of UpstreamConfig.apiBase. */
  scopes: readonly ServiceScope[]
  /** The scope that reads; every scope of the service includes it. */
  readScope: string
  /** The revision of the provider's interface the tools are built on, where it states one. */
  revision?: string
}

export const SERVICES: Readonly<Record<ServiceName, ServiceInfo>> = {
  tasks: {
    name: 'tasks',
    title: 'Tasks',
    // "@default" is a list like any other: the grant keeps which list it names.
    resource: {
      noun: 'task list',
      nouns: 'task lists',
      listedBy: 'list_task_lists',
      fields: ['tasklist', 'destinationTasklist'],
      titledIn: 'list_tasks',
    },
    readScope: 'tasks.readonly',
    revision: 'v1 (description revision 20260927)',
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
    // A site is its exact siteUrl: sc-domain:example.com and https://example.com/ are two.
    resource: {
      noun: 'site',
      nouns: 'sites',
      listedBy: 'list_sites',
      fields: ['siteUrl'],
      titledIn: 'query_search_analytics',
    },
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
    // The Admin API names a property properties/N; the reports take N.
    resource: {
      noun: 'property',
      nouns: 'properties',
      fields: ['propertiesId'],
      titledIn: 'run_report',
      idOf: (value) => `properties/${value}`,
      valueOfId: (id) => id.replace(/^properties\//, ''),
    },
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
