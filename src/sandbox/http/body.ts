import type { Context } from 'hono'
import { invalidArgument } from './errors.js'

/** Reads a JSON object body, or fails with the provider's 400 saying what is wrong. */
export async function readJsonObject(
  c: Context,
  { required = true } = {},
): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (text.trim() === '') {
    if (required) throw invalidArgument('The request needs a JSON object body.')
    return {}
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalidArgument('The request body is not valid JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument('The request body must be a JSON object.')
  }
  return value as Record<string, unknown>
}
