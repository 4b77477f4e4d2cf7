import { setFlagsFromString } from 'node:v8'

/**
 * Regular expressions in RE2 syntax, as the real service takes them in `includingRegex` and
 * `excludingRegex`. V8's linear-time engine (the `l` flag) accepts what RE2 accepts and, like
 * RE2, refuses backreferences and lookaround, so a hostile pattern cannot stall the sandbox.
 * RE2's own spellings are translated: a leading `(?i)`/`(?s)`/`(?m)`, `(?P<name>`, `\A`, `\z`.
 * Like RE2's partial match, a pattern matches when it is found anywhere in the value. Where V8
 * lacks that engine, patterns run on the ordinary one: the same answers, without the guarantee.
 */

const LINEAR = (() => {
  try {
    setFlagsFromString('--enable-experimental-regexp-engine')
    // eslint-disable-next-line no-invalid-regexp -- the `l` flag exists once the V8 flag is set
    new RegExp('a', 'l')
    return true
  } catch {
    return false
  }
})()

const MAX_PATTERN_LENGTH = 4096

export type Matcher = (value: string) => boolean

/** Lowercases a pattern's literal letters, leaving escapes (`\D`, `\S`, `\W`, `\B`) as they are. */
function lowercaseLiterals(pattern: string): string {
  let out = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '')
      i++
    } else out += ch.toLowerCase()
  }
  return out
}

export interface Re2Options {
  /** The whole value must match (a full match), not a part of it. */
  whole?: boolean
  /** Letters match in either case, as a leading `(?i)` says. */
  caseless?: boolean
}

/** A matcher for an RE2 pattern, or a message saying what is wrong with it. */
export function compileRe2(pattern: string, options: Re2Options = {}): Matcher | string {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `the regular expression is longer than ${MAX_PATTERN_LENGTH} characters`
  let source = pattern
  let flags = options.caseless ? 'i' : ''
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(source)
  if (leading) {
    for (const flag of leading[1]!) {
      if (!'ims'.includes(flag))
        return `the flag "${flag}" in "(?${leading[1]})" is not supported: use i, m or s`
      if (!flags.includes(flag)) flags += flag
    }
    source = source.slice(leading[0].length)
  }
  if (/\(\?[a-zA-Z-]+[):]/.test(source))
    return 'inline flags such as (?i) are supported only at the start of the expression'
  if (/\(\?[=!]|\(\?<[=!]/.test(source))
    return 'RE2 syntax has no lookahead or lookbehind ((?=, (?!, (?<=, (?<!)'
  if (/\\[1-9]|\\k</.test(source)) return 'RE2 syntax has no backreferences (\\1, \\k<name>)'
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
  if (options.whole) source = `^(?:${source})$`
  const caseless = flags.includes('i')
  if (caseless) source = lowercaseLiterals(source)
  let re: RegExp
  try {
    re = new RegExp(source, flags.replace('i', '') + (LINEAR ? 'l' : ''))
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: /, '')
    return `it is not a valid RE2 regular expression (${reason})`
  }
  return caseless ? (value) => re.test(value.toLowerCase()) : (value) => re.test(value)
}
