import fc from 'fast-check'

/**
 * Values a tool's published JSON Schema admits, generated from the schema itself: the keywords
 * the listing uses (src/services/json-schema.ts), each format as its RFC defines it. JSON as
 * I-JSON (RFC 7493) has it: integers within ±(2^53 - 1), strings of Unicode scalar values. Random
 * values, the bounds themselves (the shortest and longest text, in characters outside the BMP
 * too; the fewest and most items; the least and greatest numbers), and each optional object or
 * list left empty, as forms send it. Where a value is not the schema's to say (an id the
 * provider gave, a piece shown in brief), `given` supplies it.
 */

export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null'
  description?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean
  minProperties?: number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  default?: unknown
}

/**
 * Where a field's values come from outside its schema: the arbitrary for the field at `at`
 * (`requests[].dimensionFilter`), or undefined to generate it from its schema.
 */
export type Given = (at: string, schema: JsonSchema) => fc.Arbitrary<unknown> | undefined

/** Where a field sits, as `given` names it: `orderBys[].metric`. */
export const fieldAt = (parent: string, key: string) => (parent ? `${parent}.${key}` : key)
const itemsAt = (parent: string) => `${parent}[]`

/** Items of a random list beyond its least: the most is tried on its own, where it is small. */
const FEW = 3
const MOST_ITEMS_TRIED = 50
const SAFE = Number.MAX_SAFE_INTEGER

/** What a form sends for an optional object or list left empty, where the schema admits it. */
export function emptyOf(schema: JsonSchema): unknown {
  if (schema.type === 'array') return (schema.minItems ?? 0) === 0 ? [] : undefined
  if (schema.type !== 'object') return undefined
  return (schema.required ?? []).length === 0 && !schema.minProperties ? {} : undefined
}

/** Any value `schema` admits at `at`. */
export function admittedBy(
  schema: JsonSchema,
  given: Given = () => undefined,
  at = '',
): fc.Arbitrary<unknown> {
  const supplied = given(at, schema)
  if (supplied) return supplied
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch) => admittedBy(branch, given, at)))
  switch (schema.type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return edgesOr(
        [schema.minimum ?? -SAFE, schema.maximum ?? SAFE],
        fc.integer({ min: schema.minimum ?? -SAFE, max: schema.maximum ?? SAFE }),
      )
    case 'number':
      return fc.double({
        min: schema.minimum ?? -Number.MAX_VALUE,
        max: schema.maximum ?? Number.MAX_VALUE,
        noNaN: true,
      })
    case 'string':
      return text(schema)
    case 'array':
      return list(schema, admittedBy(schema.items ?? {}, given, itemsAt(at)))
    case 'object':
      return object(schema, given, at)
    default:
      throw new Error(`${at}: no values for ${JSON.stringify(schema).slice(0, 200)}`)
  }
}

/** Mostly `random`, often one of `edges`. */
const edgesOr = <T>(edges: T[], random: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: random }, { weight: 1, arbitrary: fc.constantFrom(...edges) })

function list(schema: JsonSchema, item: fc.Arbitrary<unknown>) {
  const least = schema.minItems ?? 0
  const most = schema.maxItems ?? Infinity
  const random = fc.array(item, { minLength: least, maxLength: Math.min(most, least + FEW) })
  if (most <= least + FEW || most > MOST_ITEMS_TRIED) return random
  const full = fc.array(item, { minLength: most, maxLength: most })
  return fc.oneof({ weight: 5, arbitrary: random }, { weight: 1, arbitrary: full })
}

function object(schema: JsonSchema, given: Given, at: string) {
  if (!schema.properties) throw new Error(`${at || 'the root'}: an object in brief needs given`)
  const required = schema.required ?? []
  const fields: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [key, field] of Object.entries(schema.properties)) {
    const values = admittedBy(field, given, fieldAt(at, key))
    const empty = emptyOf(field)
    fields[key] =
      required.includes(key) || empty === undefined
        ? values
        : fc.oneof({ weight: 3, arbitrary: values }, { weight: 1, arbitrary: fc.constant(empty) })
  }
  const record = fc.record(fields, { requiredKeys: required })
  const least = schema.minProperties ?? 0
  return least ? record.filter((value) => Object.keys(value).length >= least) : record
}

/** Text `schema` admits: its pattern or format, or any text within its lengths in characters. */
function text(schema: JsonSchema): fc.Arbitrary<string> {
  const { minLength = 0, maxLength } = schema
  const fits = (value: string) => {
    const length = [...value].length
    return length >= minLength && length <= (maxLength ?? Infinity)
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits)
  if (schema.format) {
    const format = FORMATS[schema.format]
    if (!format) throw new Error(`no values for the format ${schema.format}`)
    return format.filter(fits)
  }
  const random = fc.string({ unit: character, minLength, maxLength: maxLength ?? minLength + 40 })
  // Long texts of one length are built whole: drawn a character at a time, they are slow.
  const exactly = (length: number) =>
    fc.oneof(
      length <= 64
        ? fc.string({ unit: character, minLength: length, maxLength: length })
        : character.map((c) => c.repeat(length)),
      fc.constant('😀'.repeat(length)),
    )
  return fc.oneof(
    { weight: 3, arbitrary: random },
    { weight: 1, arbitrary: exactly(minLength) },
    ...(maxLength === undefined ? [] : [{ weight: 1, arbitrary: exactly(maxLength) }]),
  )
}

/** A Unicode scalar value: mostly printable ASCII, also control characters and other planes. */
export const character = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
)

const digits = (n: number, min: number, max: number) =>
  fc.integer({ min, max }).map((value) => String(value).padStart(n, '0'))

/** RFC 3339's full-date: a real day of the years 0000 to 9999. */
const fullDate = fc
  .date({
    min: new Date('0000-01-01T00:00:00Z'),
    max: new Date('9999-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10))

/**
 * RFC 3339's date-time (section 5.6): any number of decimals, a leap second at the end of a UTC
 * day, "T" and "Z" in either case, an offset of at most 23:59.
 */
const dateTime = fc
  .tuple(
    fullDate,
    fc.constantFrom('T', 't'),
    digits(2, 0, 23),
    digits(2, 0, 59),
    digits(2, 0, 59),
    fc.option(fc.stringMatching(/^\.\d{1,12}$/), { nil: '' }),
    fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc
        .tuple(fc.constantFrom('+', '-'), digits(2, 0, 23), digits(2, 0, 59))
        .map(([sign, hours, minutes]) => `${sign}${hours}:${minutes}`),
    ),
  )
  .map(([day, t, h, m, s, decimals, zone]) => `${day}${t}${h}:${m}:${s}${decimals}${zone}`)

const leapSecond = fullDate.map((day) => `${day}T23:59:60Z`)

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  date: fullDate,
  'date-time': fc.oneof({ weight: 9, arbitrary: dateTime }, { weight: 1, arbitrary: leapSecond }),
  uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
}
