import type { Context } from 'hono'
import { z } from 'zod'
import { readJsonObject } from './body.js'
import { invalidArgument } from './errors.js'

/** Parses with a zod schema; a failure becomes the provider's 400 naming the field and the rule. */
export function parseOrInvalid<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where = 'body',
): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const messages = result.error.issues.slice(0, 5).map((issue) => {
    const field = issue.path.length ? issue.path.join('.') : where
    return `Invalid value for ${field}: ${issue.message}.`
  })
  throw invalidArgument(messages.join(' '))
}

type ObjectSchema = z.ZodObject<z.ZodRawShape>

/** The query of a call that takes no query parameters. */
export const noQuery = z.object({})

const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(', ')

/** Parses the query string: every parameter must be known to the call and given once. */
export function readQuery<S extends ObjectSchema>(c: Context, schema: S): z.output<S> {
  const allowed = Object.keys(schema.shape)
  const values: Record<string, string> = {}
  for (const [name, value] of new URL(c.req.url).searchParams) {
    if (!allowed.includes(name)) {
      const accepted = allowed.length
        ? `this call accepts ${quoted(allowed)}`
        : 'this call takes no query parameters'
      throw invalidArgument(`Unknown query parameter "${name}": ${accepted}.`)
    }
    if (Object.hasOwn(values, name))
      throw invalidArgument(`The query parameter "${name}" is given more than once: give it once.`)
    values[name] = value
  }
  return parseOrInvalid(schema, values, 'query')
}

/** Parses a JSON body: fields the resource does not have are rejected, by name. */
export async function readBody<S extends ObjectSchema>(
  c: Context,
  schema: S,
  resource: string,
): Promise<z.output<S>> {
  const body = await readJsonObject(c)
  const known = Object.keys(schema.shape)
  const unknown = Object.keys(body).filter((name) => !known.includes(name))
  if (unknown.length) {
    throw invalidArgument(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${quoted(unknown)} in the ${resource}: remove ${unknown.length > 1 ? 'them' : 'it'}.`,
    )
  }
  return parseOrInvalid(schema, body)
}
