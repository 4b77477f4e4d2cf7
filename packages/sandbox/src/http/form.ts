import type { Context } from 'hono'
import { readBodyText } from './body.js'

/** Why a form body could not be read: the caller answers in its own error shape. */
export class FormError extends Error {
  override name = 'FormError'
}

const FORM_TYPE = 'application/x-www-form-urlencoded'

/**
 * The bound of a form: the sign-in and consent form, the token and revocation requests are a
 * few hundred bytes; 16 KiB leaves room for long codes and tokens.
 */
export const MAX_FORM_BYTES = 16 * 1024

/**
 * Reads an `application/x-www-form-urlencoded` body (what HTML forms and OAuth clients send).
 * A body without a content type is read as a form; any other type is refused. Past 16 KiB, the
 * provider's 413 (a ProviderError, which the origin renders).
 */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('content-type')
  if (type !== undefined && type.split(';')[0]!.trim().toLowerCase() !== FORM_TYPE) {
    throw new FormError(`Send the parameters as ${FORM_TYPE}, not ${type.split(';')[0]!.trim()}.`)
  }
  return new URLSearchParams(await readBodyText(c, MAX_FORM_BYTES))
}

/** The names among `names` sent more than once (RFC 6749 §3.1: each at most once). */
export function repeated(params: URLSearchParams, names: readonly string[]): string[] {
  return names.filter((name) => params.getAll(name).length > 1)
}

/** The names among `names` that are missing or empty. */
export function missing(params: URLSearchParams, names: readonly string[]): string[] {
  return names.filter((name) => !params.get(name))
}
