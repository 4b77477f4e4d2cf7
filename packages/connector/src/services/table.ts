import { scopeNamesOf, type ServiceName } from './catalog.js'

/**
 * A service's tools as the tool table lists them (docs/design.md, "The tool table"): one row per
 * tool, in its order, with its method and path, whether each call is approved, its scope and, for a
 * change, its access mode. Each tool's definition starts from its row (defineTool); what follows
 * from the row is derived there, not written again.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** The access modes: approval in the assistant's interface, or on the connector's page. */
export type AccessMode = 'auth-token' | 'per-call'

/** A "Method and path" cell, as the tool table writes it: `POST /lists/{tasklist}/tasks`. */
export type MethodAndPath = `${HttpMethod} /${string}`

/** One row: a read ("none (read)") or a change approved "each time", with its access mode. */
export type TableRow =
  | readonly [methodAndPath: MethodAndPath, scope: string, approval: 'none (read)']
  | readonly [methodAndPath: MethodAndPath, scope: string, approval: 'each time', AccessMode]

/** A row as a definition reads it. */
export interface ToolRow {
  service: ServiceName
  /** The tool's name: the row's key. */
  name: string
  method: HttpMethod
  /** Relative to the service's base URL. */
  path: string
  /** The short scope a token needs. */
  scope: string
  /** How the person approves each call of a change; none for a read. */
  access?: AccessMode
}

export interface ReadRow extends ToolRow {
  access?: undefined
}

export interface ChangeRow extends ToolRow {
  access: AccessMode
}

type RowOf<Row extends TableRow> = Row extends { 3: AccessMode } ? ChangeRow : ReadRow

/** A service's table, keyed by tool name in the tool table's order. An unknown scope is a fault. */
export function toolTable<const Rows extends Record<string, TableRow>>(
  service: ServiceName,
  rows: Rows,
): { readonly [Name in keyof Rows]: RowOf<Rows[Name]> } {
  const scopes = scopeNamesOf(service)
  const table: Record<string, ToolRow> = {}
  for (const [name, [methodAndPath, scope, , access]] of Object.entries(rows)) {
    if (!scopes.includes(scope))
      throw new Error(`The ${service} service has no scope "${scope}" (tool ${name}).`)
    const [method, path] = methodAndPath.split(' ') as [HttpMethod, string]
    table[name] = { service, name, method, path, scope, access }
  }
  return table as { readonly [Name in keyof Rows]: RowOf<Rows[Name]> }
}
