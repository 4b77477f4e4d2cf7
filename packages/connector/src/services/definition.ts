import type { z } from 'zod'
import type { ServiceName } from './catalog.js'
import { toolInput } from './inputs.js'
import type { AccessMode, ChangeRow, HttpMethod, ToolRow } from './table.js'
import type { ViewName } from './views.js'

export type { AccessMode, HttpMethod }

/**
 * One tool of one service, declared once: its row of the tool table (src/services/table.ts)
 * and what defineTool adds to it. The MCP listing, input validation, the upstream request, the
 * approval message and docs/tools.md are all derived from this: adding a tool is adding a row
 * and its definition. Nothing here knows about transport, auth or storage.
 */
export interface ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> {
  service: ServiceName
  /** The tool's name, e.g. `delete_task`. */
  name: string
  /** For people: a short title. */
  title: string
  /** For a model: what the tool does and the provider's rules that matter when calling it. */
  description: string
  /**
   * The generic provider's method and path (a provider profile may map them elsewhere,
   * src/services/profiles).
   */
  method: HttpMethod
  /** Relative to the service's base URL; `{name}` segments are filled from input fields. */
  path: string
  /** Flat: path parameters, query parameters and body fields side by side. */
  input: Input
  /** The input fields sent as query parameters. */
  query: readonly string[]
  /** The input fields the connector reads itself to shape the answer: never sent. */
  kept: readonly string[]
  /** 'rest': every field not in the path or the query is a field of the JSON body (derived). */
  body: 'rest' | 'none'
  /**
   * What a successful call returns as `structuredContent`: the upstream resource or page, or
   * what `answer` builds from it.
   */
  output: Output
  /**
   * Where the result is not the provider's answer as it is but built from it (a compact table,
   * docs/design.md, "Results sized for a model"): what the provider answers, checked before
   * anything is built from it, and how the result is built. Without it, the answer is the result,
   * checked against `output`.
   */
  answer?: AnswerReading<z.output<Input>>
  /** The short scope the tool needs (the tool table's scopes). */
  scope: string
  /** Safe to send again when the outcome of a call is unknown (derived: reads; not creates). */
  idempotent: boolean
  /** MCP hints (derived); a client may ignore them, which is why the server enforces approval. */
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean }
  /**
   * What a successful answer without a body stands for (a DELETE's 204, a PUT's empty 200): the
   * tool's `structuredContent`, made from its arguments. Without it, a bodiless answer does not
   * fit the output schema and is reported as unexpected.
   */
  answerWithoutBody?: (args: z.output<Input>) => Record<string, unknown>
  /**
   * Checks the arguments against what the provider holds, after the schema and before the call
   * (analytics names against the property's metadata, say): what to change, or undefined.
   */
  preflight?: (args: z.output<Input>, provider: ProviderReader) => Promise<string | undefined>
  /** For changes only: how the person approves each call, and how the change reads to them. */
  approval?: ApprovalPolicy<z.output<Input>>
  /** The view that draws its result in hosts that render MCP Apps (services/views.ts). */
  view?: ViewName
  /**
   * For a tool that lists the service's resources (its task lists, sites, properties): the
   * provider's answer with only those that `covered` keeps, for a grant of chosen ones.
   */
  narrow?: Narrowing
  /** For a tool that makes one (a task list): the id of the one made, which joins the grant. */
  made?: (answer: Record<string, unknown>) => string | undefined
}

/** An answer (that fits the tool's schema) with only the resources a grant covers. */
export type Narrowing = (
  answer: Record<string, unknown>,
  covered: (id: string) => boolean,
) => Record<string, unknown>

/**
 * The narrowing of an answer that lists resources in `field` (`items`, `siteEntry`), each with
 * its id in `idField`: the list without those not covered; a list left empty is left out, as
 * the provider leaves out an empty one.
 */
export const narrowList =
  (field: string, idField: string): Narrowing =>
  (answer, covered) => {
    const listed = answer[field]
    if (!Array.isArray(listed)) return answer
    const kept = listed.filter((entry: Record<string, unknown>) => covered(String(entry[idField])))
    const { [field]: _all, ...rest } = answer
    return kept.length ? { ...rest, [field]: kept } : rest
  }

/** How a tool's result is built from the provider's answer. */
export interface AnswerReading<Args, Answer extends z.ZodType = z.ZodType> {
  /** What the provider answers: the connector builds nothing from an answer that does not fit. */
  schema: Answer
  /** The tool's result, fitting its `output`, from an answer that fits `schema`. */
  present(answer: z.output<Answer>, args: Args): Record<string, unknown>
}

/**
 * A read of the provider that no tool exposes, made only to describe a change: the generic
 * provider's `GET /lists/{tasklist}` ("upstream only, no tool", like the list's `clear`).
 */
export interface ProviderRead {
  service: ServiceName
  name: string
  method: 'GET'
  path: string
}

/** The input's fields: path parameters, query parameters and body fields side by side. */
type Args<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape, z.core.$strict>>

/**
 * What a definition adds to its row: what a model and a person read, the input and output, and
 * the hooks. A change must say how it reads to the person; a read has nothing to approve.
 */
export type ToolDetail<
  Row extends ToolRow,
  Shape extends z.ZodRawShape,
  O extends z.ZodType,
  A extends z.ZodType,
> = {
  title: string
  description: string
  /** The input's fields; unknown ones are refused by name (toolInput). */
  input: Shape
  /** Rules across fields, checked once each field is valid. */
  check?: (args: Args<Shape>, ctx: z.RefinementCtx<Args<Shape>>) => void
  /**
   * The JSON Schema keywords that say `check`'s rule in the listing, where they can (update_task's
   * "something to change" is `minProperties`): a form then refuses what the server would.
   */
  checkInSchema?: { minProperties: number }
  query: readonly (keyof Shape & string)[]
  /** Fields the connector reads itself (a filter of the answer): neither path, query nor body. */
  kept?: readonly (keyof Shape & string)[]
  output: O
  answer?: AnswerReading<Args<Shape>, A>
  answerWithoutBody?: (args: Args<Shape>) => Record<string, unknown>
  preflight?: (args: Args<Shape>, provider: ProviderReader) => Promise<string | undefined>
  view?: ViewName
  narrow?: Narrowing
  made?: (answer: Record<string, unknown>) => string | undefined
} & (Row extends ChangeRow
  ? { approval: Omit<ApprovalPolicy<Args<Shape>>, 'mode'> }
  : { approval?: never })

/**
 * A tool's definition: its row of the tool table and its detail. What the row decides is
 * derived here. A read is read-only and idempotent. A change is sent again after a lost answer
 * only where its method allows: PUT and DELETE are idempotent, and so are these PATCHes, which
 * set fields to the values given, under If-Match; a POST creates, or (a move with no `previous`)
 * places anew, so it is sent once. A DELETE and a PATCH are destructive (DESTRUCTIVE).
 */
export function defineTool<
  Row extends ToolRow,
  Shape extends z.ZodRawShape,
  O extends z.ZodType,
  A extends z.ZodType = z.ZodType,
>(
  row: Row,
  detail: ToolDetail<Row, Shape, O, A>,
): ToolDefinition<z.ZodObject<Shape, z.core.$strict>, O> {
  const { service, name, method, path, scope, access } = row
  const { input, check, checkInSchema, query, kept = [], approval, answer, ...rest } = detail
  const fields = toolInput(name, input)
  const idempotent = access === undefined || IDEMPOTENT_CHANGES.includes(method)
  const inPath = pathParamsOf(path)
  const sent = Object.keys(input).filter(
    (f) => !inPath.includes(f) && !query.includes(f) && !kept.includes(f),
  )
  return {
    service,
    name,
    method,
    path,
    ...rest,
    // The answer's type is the definition's own concern: `present` gets what `schema` accepted.
    ...(answer && { answer: answer as AnswerReading<Args<Shape>> }),
    input: checked(fields, check, checkInSchema),
    query,
    kept,
    // Whatever is neither in the path nor in the query is the JSON body.
    body: sent.length ? 'rest' : 'none',
    scope,
    idempotent,
    annotations:
      access === undefined
        ? READ_HINTS
        : {
            readOnlyHint: false,
            destructiveHint: DESTRUCTIVE.includes(method),
            idempotentHint: idempotent,
          },
    ...(approval && access && { approval: { mode: access, ...approval } }),
  }
}

/** The input with its rule across fields, and the keywords that show the rule in the listing. */
function checked<O extends z.ZodObject>(
  fields: O,
  check: ((args: z.output<O>, ctx: z.RefinementCtx<z.output<O>>) => void) | undefined,
  inSchema: Record<string, unknown> | undefined,
): O {
  if (!check) return fields
  const refined = fields.superRefine(check)
  return inSchema ? refined.meta(inSchema) : refined
}

const IDEMPOTENT_CHANGES: readonly HttpMethod[] = ['PUT', 'PATCH', 'DELETE']

/**
 * The changes that may take away what the person wrote: a DELETE removes it, a PATCH overwrites
 * or clears fields (update_task's title, notes, due). MCP's `destructiveHint: false` says "only
 * additive": creating, submitting a sitemap again, and moving a task, which loses nothing and is
 * undone by moving it back (docs/decisions.md, "Which changes are destructive").
 */
const DESTRUCTIVE: readonly HttpMethod[] = ['PATCH', 'DELETE']

/** The MCP hints of every read. */
const READ_HINTS = { readOnlyHint: true, idempotentHint: true } as const

export interface ApprovalPolicy<Args> {
  mode: AccessMode
  /** Reads what it needs from the provider to say what will change, in the person's words. */
  describe(args: Args, provider: ProviderReader): Promise<ChangeDescription>
  /**
   * The provider reads `describe` makes before the person is asked, each at most once: what the
   * approval costs, as docs/tools.md says it (the suite holds `describe` to it).
   */
  reads: readonly ApprovalRead[]
  /**
   * For a change to an existing resource: the read (a tool of the same service, filled from the
   * same arguments) that gives it, whose etag the person saw. Where the provider does not honour
   * If-Match, it is read again just before the change is sent (src/mcp/seen-version.ts).
   */
  existing?: string
}

/** One read an approval makes before asking: the operation, and what it reads and why. */
export interface ApprovalRead {
  /** A read tool or a ProviderRead of the service: `get_task`, `get_task_list`. */
  operation: string
  /** In a reader's words: "the parent, when given, to name it". */
  what: string
}

export interface ChangeDescription {
  /** One question, naming things by title: `Delete task "Buy milk" from list "Groceries"?` */
  summary: string
  /** What a person checks before approving, in order. */
  details: ChangeDetail[]
  /** The etag of the existing resource the person saw: the change is sent with it as If-Match. */
  ifMatch?: string
}

export interface ChangeDetail {
  label: string
  /** The value after the change, or what the change concerns. */
  value: string
  /** For a value the change replaces: what it is now, shown beside the new one. */
  before?: string
}

/** A detail in one line of text: `"Buy oat milk" (was "Buy milk")`. */
export function detailText({ value, before }: ChangeDetail): string {
  if (before === undefined) return value
  return before === value ? `${value} (unchanged)` : `${value} (was ${before})`
}

/**
 * Reads from the provider on behalf of the grant, for describing a change or checking arguments:
 * the answer's body. `operation` names a read tool or a ProviderRead (`get_task`,
 * `get_task_list`): the provider profile says where it goes. A failure is thrown as the API
 * call's own error.
 */
export interface ProviderReader {
  get(operation: string, pathParams: Record<string, string>): Promise<unknown>
}

/**
 * One resource read through `provider`, checked against its schema: a change cannot be shown to
 * the person from an answer that is not what it should be. `what` names it in the error.
 */
export async function readResource<S extends z.ZodType>(
  provider: ProviderReader,
  schema: S,
  what: string,
  operation: string,
  params: Record<string, string>,
): Promise<z.output<S>> {
  const parsed = schema.safeParse(await provider.get(operation, params))
  if (!parsed.success)
    throw new Error(`The provider's answer for ${what} is not one: the change cannot be shown.`)
  return parsed.data
}

/** The path parameters a definition's path names, in order. */
export const pathParamsOf = (path: string): string[] =>
  [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!)

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
