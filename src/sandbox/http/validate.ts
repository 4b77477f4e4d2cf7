import type { z } from 'zod'
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
