import { z } from 'zod'

/**
 * A tool's JSON Schema as the MCP listing shows it to a model, and as docs/tools.md renders it:
 * generated from the zod schema that validates, then cut to what every host can read within the
 * model's budget (docs/design.md, "Results sized for a model"; the measures are in
 * docs/decisions.md, "Results sized for a model"):
 *
 * - no `$schema`: MCP reads a schema without one as 2020-12, and Gemini's API refuses the keyword;
 * - no `$ref` and no `$defs`: Gemini CLI, GitHub Copilot CLI and several agent frameworks cannot
 *   resolve them. A piece marked `inBrief` (a recursive filter, a request that takes another
 *   tool's fields) is shown as an object with its description: the model reads its fields there,
 *   and the arguments are still validated against the whole zod schema, whose messages name the
 *   field to change. A reference left anywhere else is a fault, found at startup;
 * - no bounds that are only JavaScript's safe-integer range, which zod puts on every integer.
 */

const BRIEF = 'x-countersign-brief'

/** Shows `schema` to a model as an object described in words (its description says how). */
export const inBrief = <S extends z.ZodType>(schema: S): S => schema.meta({ [BRIEF]: true })

type Json = Record<string, unknown>

export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Json
  return forAModel(json, '')
}

function forAModel(node: Json, at: string): Json {
  if (node[BRIEF] === true) {
    if (typeof node.description !== 'string')
      throw new Error(`The schema at ${at || 'the root'} is shown in brief without a description.`)
    return { type: node.type ?? 'object', description: node.description }
  }
  if ('$ref' in node)
    throw new Error(`The schema at ${at} refers to ${String(node.$ref)}: show it inBrief.`)
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$defs') continue
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === SAFE) continue
    out[key] = walk(value, `${at}/${key}`)
  }
  return out
}

const SAFE = Number.MAX_SAFE_INTEGER

function walk(value: unknown, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => walk(item, `${at}/${i}`))
  if (typeof value === 'object' && value !== null) return forAModel(value as Json, at)
  return value
}
