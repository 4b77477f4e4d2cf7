import type { Context } from 'hono'
import type { z } from 'zod'
import { readJsonObject } from '../http/body.js'
import { conditionNotMet, invalidArgument } from '../http/errors.js'
import { parseOrInvalid } from '../http/validate.js'

type ObjectSchema = z.ZodObject<z.ZodRawShape>

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

/**
 * Honours If-Match: any member of its comma-separated list equal to the current etag, or `*`.
 * A change made against a stale read fails instead of overwriting what the caller never saw.
 */
export function assertIfMatch(header: string | undefined, etag: string): void {
  if (header === undefined) return
  const members = header.split(',').map((m) => m.trim())
  if (members.includes('*') || members.includes(etag)) return
  throw conditionNotMet(
    `If-Match ${header.slice(0, 100)} does not match the current etag ${etag}: the resource changed since it was read. Read it again and retry.`,
  )
}
