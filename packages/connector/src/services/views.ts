/**
 * The views that draw a tool's result in hosts that render MCP Apps (docs/design.md, "Views in the
 * conversation"): each a self-contained HTML document built from `packages/connector/views/` by
 * `npm run build`. A tool names its view in its definition; the MCP layer declares it in the tool's
 * `_meta.ui` and serves it from the service's endpoint. Hosts without the extension ignore both.
 */

export const VIEW_NAMES = ['search-performance', 'report', 'realtime'] as const

export type ViewName = (typeof VIEW_NAMES)[number]

export interface ViewInfo {
  /** For people, in a host's list of resources. */
  title: string
  description: string
}

export const VIEWS: Readonly<Record<ViewName, ViewInfo>> = {
  'search-performance': {
    title: 'Search performance chart',
    description:
      'Draws a search-performance query: clicks and impressions over time, or the ranked rows.',
  },
  report: {
    title: 'Report chart',
    description: 'Draws analytics reports: metrics over time, or the ranked rows.',
  },
  realtime: {
    title: 'Realtime report',
    description: 'Draws the last 30 minutes on a property: users by minute, or the ranked rows.',
  },
}

/** A view's resource URI, as a tool's `_meta.ui.resourceUri` names it. */
export const viewUri = (name: ViewName) => `ui://countersign/${name}`
