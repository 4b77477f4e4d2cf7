import { scopeNamesOf, type ServiceName } from './catalog.js'
import type { AccessMode, HttpMethod, ToolDefinition } from './definition.js'

/**
 * A service's tools as the seed tabulates them: one row per tool, in the seed's order, with its
 * tool table's "Method and path" and "User approval", its permission table's scope and, for a
 * change, the access mode its Authentication section gives. Each tool's definition starts from
 * its row (defineTool); what follows from the row is derived there, not written again.
 */

/** A "Method and path" cell, as the seed writes it: `POST /lists/{tasklist}/tasks`. */
export type MethodAndPath = `${HttpMethod} /${string}`

/** One row: a read ("none (read)") or a change approved "each time", with its access mode. */
export type SeedRow =
  | readonly [methodAndPath: MethodAndPath, scope: string, approval: 'none (read)']
  | readonly [methodAndPath: MethodAndPath, scope: string, approval: 'each time', AccessMode]

/** A row as a definition reads it. */
export interface ToolRow {
  service: ServiceName
  /** The seed's tool name: the row's key. */
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

type RowOf<Row extends SeedRow> = Row extends { 3: AccessMode } ? ChangeRow : ReadRow

/** A service's table, keyed by tool name in the seed's order. An unknown scope is a fault. */
export function seedTable<const Rows extends Record<string, SeedRow>>(
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

/**
 * A service's definitions in the order of its table: every row has exactly one, and every
 * definition has a row (`definitions` is what the service's tools module exports).
 */
export function inTableOrder(
  table: Readonly<Record<string, ToolRow>>,
  definitions: Readonly<Record<string, ToolDefinition>>,
): readonly ToolDefinition[] {
  const byName = new Map<string, ToolDefinition>()
  for (const definition of Object.values(definitions)) {
    if (table[definition.name]?.service !== definition.service || byName.has(definition.name))
      throw new Error(`The tool ${definition.name} is not one row of its service's table.`)
    byName.set(definition.name, definition)
  }
  return Object.keys(table).map((name) => {
    const definition = byName.get(name)
    if (!definition) throw new Error(`The tool ${name} has a row but no definition.`)
    return definition
  })
}
