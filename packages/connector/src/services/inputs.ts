import { z } from 'zod'

/** Names as a model reads them in a message: `"a", "b"`. */
export const listed = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ')

/** A string field: a missing one is named as required, with what to give. */
export const requiredString = (field: string, what: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? `${field} is required: give ${what}`
        : `${field} must be a string`,
  })

/**
 * Length as JSON Schema's minLength and maxLength count it, in characters (code points): zod's
 * `.min` and `.max` count UTF-16 units, two for an emoji or any character beyond the BMP.
 */
export const characters = (text: string) => Array.from(text).length

/** `schema` with at most `max` characters, counted as the listing's maxLength counts them. */
export const atMostCharacters = (schema: z.ZodString, max: number, error: string) =>
  schema.refine((text) => characters(text) <= max, { error }).meta({ maxLength: max })

/** What a schema-driven form or a model sends for an optional object or list left empty. */
const isEmpty = (value: unknown) =>
  Array.isArray(value)
    ? value.length === 0
    : typeof value === 'object' && value !== null && Object.keys(value).length === 0

/**
 * An optional object or list where `{}` or `[]` means none, as forms and models send them: taken
 * as left out, so it is neither checked nor sent. The listing shows `schema` itself; an optional
 * list has no minimum there, so that the listing admits `[]` as the server does.
 */
export const emptyIsNone = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (isEmpty(value) ? undefined : value), schema.optional()).optional()

/**
 * A provider's opaque page token: printable ASCII (Google's and the sandbox's are base64), and
 * a token longer than this is not one it gave. Either bound keeps the query string within what
 * an HTTP server reads: 2,048 emoji, percent-encoded, were a 24 KB URL, refused with 431.
 */
const PAGE_TOKEN_MAX = 2048

/** The `nextPageToken` of the previous page, passed back unchanged. */
export const pageToken = () =>
  atMostCharacters(
    requiredString('pageToken', 'the nextPageToken of the previous page')
      .min(1, { error: 'pageToken must not be empty: leave it out for the first page' })
      .regex(/^[!-~]*$/, {
        error:
          'pageToken is not a page token (they are printable ASCII): pass the nextPageToken of the previous page unchanged',
      }),
    PAGE_TOKEN_MAX,
    'pageToken is too long: pass the nextPageToken of the previous page unchanged',
  )

/** A true or false field. */
export const flag = (field: string) => z.boolean({ error: `${field} must be true or false` })

/** Messages for a nested object: not an object, or with fields it does not have. */
export const objectError =
  (what: string, example: string) =>
  (issue: { code: string; keys?: string[] }): string | undefined => {
    if (issue.code === 'invalid_type') return `${what} is an object such as ${example}`
    if (issue.code === 'unrecognized_keys')
      return `${what} has no field ${listed(issue.keys!.map((k) => k.slice(0, 40)))}: remove it (example: ${example})`
    return undefined
  }

/**
 * A flat input object: unknown fields are refused by name, with the fields the tool takes, so a
 * model that guessed a name (or sent a read-only field such as `position`) learns what to send.
 */
export function toolInput<Shape extends z.ZodRawShape>(tool: string, shape: Shape) {
  const fields = listed(Object.keys(shape))
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const names = listed(issue.keys.map((key) => key.slice(0, 40)))
        const them = issue.keys.length > 1 ? 'them' : 'it'
        return `${tool} does not take ${names}: remove ${them}. It takes ${fields}`
      }
      if (issue.code === 'invalid_type')
        return `the arguments of ${tool} must be an object with ${fields}`
      return undefined
    },
  })
}
