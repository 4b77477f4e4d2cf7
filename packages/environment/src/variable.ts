/**
 * An environment variable, declared once: its name, what a value must be, its default and its
 * words. Each program reads the environment through its declarations (the connector's
 * config/variables.ts, the sandbox's cli/env.ts), and docs/operations.md's tables are written
 * from them by `npm run docs:config`.
 */

export type Environment = Record<string, string | undefined>

/** A value the kind's usual words do not fit: it says what the value must be instead. */
export class Refusal {
  constructor(readonly must: string) {}
}

/** What a value must be, and how it is read. */
export interface Kind<T> {
  /** Completes "NAME must be ...": in the error, and in the docs as what the variable holds. */
  readonly must: string
  /** The value, or undefined (or a Refusal) when `raw` is not one. */
  read(raw: string): T | Refusal | undefined
  /** A value as the environment writes it, for the docs' defaults (else `String(value)`). */
  show?(value: T): string
  /** Said after the error: how to make a good value. */
  readonly hint?: string
}

export interface Variable<T, Default extends T | undefined = T | undefined> {
  readonly name: string
  readonly kind: Kind<T>
  /** The value when unset or empty; undefined leaves it unset, and `unset` says what that does. */
  readonly fallback: Default
  /** The docs' default, in words, when it is not a value of its own: "SQLite in `DATA_DIR`". */
  readonly unset?: string
  /** One line: what it is for (the table of docs/sandbox.md shows this alone). */
  readonly summary: string
  /** What else docs/operations.md says of it, after the summary. */
  readonly details?: string
  /** Never repeated in an error. */
  readonly secret?: boolean
}

/** Declarations as a table by name: each one's `name` is its key, written once. */
export function declareVariables<const V extends Record<string, Omit<Variable<unknown>, 'name'>>>(
  table: V,
): { readonly [K in keyof V & string]: V[K] & { readonly name: K } } {
  return Object.fromEntries(
    Object.entries(table).map(([name, variable]) => [name, { name, ...variable }]),
  ) as never
}

/** Whether the variable holds a value (empty counts as unset, as a shell's `NAME=` means). */
export const isSet = (env: Environment, variable: { name: string }): boolean =>
  Boolean(env[variable.name])

/**
 * The variable's value, its fallback when unset; an error that names it and says what it must
 * be, never repeating a secret.
 */
export function read<T, D extends T | undefined>(
  env: Environment,
  variable: Variable<T, D>,
): T | D {
  const raw = env[variable.name]
  if (raw === undefined || raw === '') return variable.fallback
  const value = variable.kind.read(raw)
  if (value !== undefined && !(value instanceof Refusal)) return value
  const must = value instanceof Refusal ? value.must : variable.kind.must
  const seen = variable.secret ? '' : `, not "${raw}"`
  const hint = variable.kind.hint ? ` ${variable.kind.hint}` : ''
  throw new Error(`${variable.name} must be ${must}${seen}.${hint}`)
}
