import { writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NAMED_IN_SCHEMA, SERVICES, type ServiceName } from './catalog.js'
import { pathParamsOf, type ToolDefinition } from './definition.js'
import { toolJsonSchema } from './json-schema.js'
import { SERVICE_TOOLS } from './tools.js'
import { viewUri } from './views.js'

/**
 * docs/tools.md, rendered from the definitions, as oidc-provider renders its docs from its
 * defaults: `npm run docs:tools` writes it, and a test fails when the checked-in file differs.
 * Inputs are read from the JSON Schema the MCP listing shows, not from zod's internals.
 */

export const TOOLS_DOC = new URL('../../../../docs/tools.md', import.meta.url)

/** The page as `npm run docs:tools` writes it: rendered, then formatted as the repository's. */
export async function toolsDoc(): Promise<string> {
  const { format, resolveConfig } = await import('prettier')
  const filepath = fileURLToPath(TOOLS_DOC)
  return format(renderToolsDoc(), { ...(await resolveConfig(filepath)), filepath })
}

const INTRO = `# Tools

<!-- Generated from the service definitions (src/services) by \`npm run docs:tools\`: edit those, not this file. -->

Each service's tools, in the order of the tool table (docs/design.md, "The tool table"), as their
definitions declare them. The MCP listing, the validation of arguments and the approvals are built
from the same definitions.

- **Method and path**: the generic provider's call, relative to the service's base URL. A provider
  profile (\`UPSTREAM_PROFILE=google\`) sends it to its own path; the tool does not change.
- **Scope**: the short scope a grant needs to call the tool.
- **Approval**: none for a read; for a change, the person approves each call, with its access
  mode: \`auth-token\` asks in the assistant's own interface where it can (MCP elicitation), else on
  the connector's approval page; \`per-call\` always asks on the connector's approval page.
  **Before asking** names the provider's reads an approval makes to show the change by title:
  what a change costs beyond its own call.
- **View**: for hosts that render MCP Apps, the view that draws the result (a chart or ranked
  rows); other hosts read the result alone, which is the same.
- **Inputs** are flat: path parameters, query parameters and body fields side by side. _Where_ says
  where each one goes in the upstream call (_connector_: nowhere, the connector reads it to shape
  the answer). Every limit is checked before anything is sent.
`

/** The whole page, before formatting. */
export function renderToolsDoc(
  services: Readonly<Record<ServiceName, readonly ToolDefinition[]>> = SERVICE_TOOLS,
): string {
  const sections = Object.entries(services).map(([service, tools]) =>
    serviceSection(service as ServiceName, tools),
  )
  return [INTRO, ...sections].join('\n')
}

function serviceSection(service: ServiceName, tools: readonly ToolDefinition[]): string {
  const { title, scopes, revision } = SERVICES[service]
  const scopeList = scopes.map((s) => `\`${s.name}\` (${s.description.toLowerCase()})`)
  const built = revision ? ` Built on the provider's interface ${revision}.` : ''
  return [
    `## ${title}`,
    `MCP endpoint \`/${service}/mcp\`. Scopes: ${scopeList.join(', ')}.${built}`,
    namedByTheGrant(service),
    table(
      ['Tool', 'Title', 'Method and path', 'Scope', 'Approval'],
      tools.map((t) => [
        code(t.name),
        text(t.title),
        code(operation(t)),
        code(t.scope),
        approval(t),
      ]),
    ),
    ...tools.map(toolSection),
  ].join('\n\n')
}

/** How a model finds the service's lists, sites or properties (src/mcp/grant-listing.ts). */
function namedByTheGrant(service: ServiceName): string {
  const { nouns, fields, listedBy, titledIn } = SERVICES[service].resource
  const inFields = fields.map(code).join(' and ')
  if (!listedBy)
    return `No tool lists the ${nouns}: \`tools/list\` names the grant's own in ${inFields}, each by name and account in ${code(titledIn)} (the rest take the same numbers), the first ${NAMED_IN_SCHEMA} of a larger grant with how to name another. A call that names none, or one outside the grant, is answered with the grant's, closest first.`
  return `For a grant narrowed to some ${nouns}, \`tools/list\` names them in ${inFields}; for a grant of every one, ${code(listedBy)} lists them.`
}

function toolSection(tool: ToolDefinition): string {
  return [
    `### ${tool.name}: ${text(tool.title)}`,
    [
      `- Method and path: ${code(operation(tool))}`,
      `- Scope: ${code(tool.scope)}`,
      `- Approval: ${approval(tool)}`,
      ...(tool.approval ? [`- Before asking, reads: ${approvalReads(tool)}`] : []),
      ...(tool.view
        ? [`- View: ${code(viewUri(tool.view))}, which hosts that render MCP Apps draw it with`]
        : []),
    ].join('\n'),
    text(tool.description),
    inputs(tool),
    ...(tool.answer ? [resultFields(tool)] : []),
  ].join('\n\n')
}

/** A result built from the provider's answer (a table): its fields, as its output schema says. */
function resultFields(tool: ToolDefinition): string {
  const root = toolJsonSchema(tool.output, 'output') as Schema
  return [
    `Result: ${text(root.description ?? '')}`,
    table(
      ['Field', 'Type', 'Always', 'Description'],
      Object.entries(root.properties ?? {}).map(([field, schema]) => [
        code(field),
        typeOf(schema),
        root.required?.includes(field) ? 'yes' : 'no',
        text(schema.description ?? ''),
      ]),
    ),
  ].join('\n\n')
}

const operation = (tool: ToolDefinition) => `${tool.method} ${tool.path}`

const approval = (tool: ToolDefinition) =>
  tool.approval ? `each time, ${code(tool.approval.mode)}` : 'none (read)'

/**
 * What an approval costs at the provider, beside the change itself: the reads that name what the
 * person is asked about, and, for a change to an existing resource under a provider that does not
 * honour If-Match, the read again just before it is sent.
 */
function approvalReads(tool: ToolDefinition): string {
  const { reads, existing } = tool.approval!
  const before = reads.length
    ? reads.map((read) => `${code(read.operation)} (${text(read.what)})`).join('; ')
    : 'nothing: the arguments say it all'
  const again = existing
    ? `; where the provider does not honour If-Match (Google), ${code(existing)} once more just before the change is sent`
    : ''
  return `${before}${again}.`
}

/** A JSON Schema, as far as this page reads it. */
interface Schema {
  type?: string | string[]
  format?: string
  description?: string
  enum?: unknown[]
  const?: unknown
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  items?: Schema
  anyOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  default?: unknown
}

function inputs(tool: ToolDefinition): string {
  // The page shows what a model is shown in the MCP listing (src/mcp/tools.ts).
  const root = toolJsonSchema(tool.input, 'input') as Schema
  const fields = Object.entries(root.properties ?? {})
  if (!fields.length) return 'No inputs.'
  const inPath = pathParamsOf(tool.path)
  const where = (field: string) =>
    inPath.includes(field)
      ? 'path'
      : tool.query.includes(field)
        ? 'query'
        : tool.kept.includes(field)
          ? 'connector'
          : 'body'
  return table(
    ['Input', 'Where', 'Type', 'Required', 'Limits', 'Description'],
    fields.map(([field, schema]) => [
      code(field),
      where(field),
      typeOf(schema),
      root.required?.includes(field) ? 'required' : 'optional',
      limitsOf(schema),
      text(schema.description ?? ''),
    ]),
  )
}

function typeOf(s: Schema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ')
  if (Array.isArray(s.type)) return s.type.join(' or ')
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`
  return s.format ? `${s.type} (${s.format})` : (s.type ?? 'any')
}

function limitsOf(s: Schema): string {
  if (s.anyOf) return s.anyOf.map(limitsOf).filter(Boolean).join('; ')
  const limits = [
    range(s.minLength, s.maxLength, 'characters'),
    range(s.minimum, s.maximum),
    range(s.minItems, s.maxItems, 'items'),
    s.enum && `one of ${s.enum.map((value) => code(String(value))).join(', ')}`,
    s.const !== undefined && `only ${code(JSON.stringify(s.const))}`,
    s.pattern && `pattern ${code(s.pattern)}`,
    s.default !== undefined && `default ${code(JSON.stringify(s.default))}`,
  ]
  const items = s.type === 'array' && s.items ? limitsOf(s.items) : ''
  if (items) limits.push(`each: ${items}`)
  return limits.filter(Boolean).join('; ')
}

function range(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  const of = (n: number) => (unit ? `${count(n)} ${unit}` : count(n))
  // No fewer than 0 characters or items goes without saying; a number's 0 does not.
  const from = min !== undefined && (min > 0 || !unit) ? min : undefined
  if (from !== undefined && max !== undefined) return `${count(from)} to ${of(max)}`
  if (max !== undefined) return `at most ${of(max)}`
  if (from !== undefined) return `at least ${of(from)}`
  return undefined
}

/** 25000 as 25,000, whatever the machine's locale. */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

/** Prose from the definitions, safe in a table cell: nothing in it is read as markup. */
const text = (value: string) => value.replace(/[\\`*~|<]/g, (c) => `\\${c}`)

const code = (value: string) => `\`${value.replace(/\|/g, '\\|')}\``

// `npm run docs:tools` runs this module to write the page.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(TOOLS_DOC, await toolsDoc())
  process.stdout.write(`Wrote ${fileURLToPath(TOOLS_DOC)}\n`)
}
