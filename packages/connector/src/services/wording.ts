import { parseTimestamp } from './timestamps.js'

/**
 * Text a person reads before approving a change. Titles and notes come from the provider and may
 * be hostile: whatever they hold, what is shown is one line, without control or direction
 * characters, and short. The result is plain text; whoever renders it as HTML escapes it.
 */

/** How many characters (code points) of a title or a line of notes are shown. */
export const SHOWN_LENGTH = 80

const LINE_BREAKS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/g
/** Control characters, and the invisible ones that reorder text on screen (bidi controls). */
const INVISIBLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** One clean line: breaks become spaces, invisible characters go, runs of spaces shrink. */
export function oneLine(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(LINE_BREAKS, ' ')
    .replace(INVISIBLE, '')
    .replace(/\s+/gu, ' ')
    .trim()
}

/**
 * At most `max` characters, ending in an ellipsis when cut. Counted in code points, not in
 * graphemes: a grapheme may carry any number of combining marks, so it bounds nothing.
 */
export function shortened(text: string, max = SHOWN_LENGTH): string {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** A title as it appears in a sentence: cleaned, shortened and quoted. */
export function quoted(title: string): string {
  const line = shortened(oneLine(title))
  return line ? `"${line}"` : '(untitled)'
}

/** Notes as a person checks them: their first line, and how long they are in all. */
export function notesPreview(notes: string): string {
  const total = Array.from(notes).length
  const lines = notes.split(LINE_BREAKS).filter((line) => oneLine(line) !== '')
  const first = shortened(oneLine(lines[0] ?? ''))
  if (!first) return `blank (${total} characters)`
  return lines.length > 1 || first !== oneLine(notes)
    ? `"${first}" (${total} characters in all)`
    : `"${first}"`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

const dayFromIso = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return `${date} ${MONTHS[month - 1]} ${year}`
}

/** The day a `due` timestamp keeps, as a person reads it: `25 Nov 2026`. */
export function dueDay(due: string): string {
  const parsed = parseTimestamp(due)
  return parsed ? dayFromIso(parsed.day) : shortened(oneLine(due), 40)
}

/** An instant as a person reads it: `25 Nov 2026, 14:03 UTC`. */
export function moment(timestamp: string): string {
  const parsed = parseTimestamp(timestamp)
  if (!parsed) return shortened(oneLine(timestamp), 40)
  const [day, time] = parsed.instant.split('T') as [string, string]
  return `${dayFromIso(day)}, ${time.slice(0, 5)} UTC`
}

/** A task's status in a person's words. */
export const statusWord = (status: string) =>
  status === 'completed' ? 'done' : status === 'needsAction' ? 'not done' : oneLine(status)
