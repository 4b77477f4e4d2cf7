import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * Every reference lands inside the repository: a comment or a page points at one of the docs by
 * page and heading, as `(docs/design.md, "The provider's API")`, never at a document the
 * repository does not hold (docs/design.md says what the code relies on).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Files whose words are history: they may name what the repository once pointed at. */
const HISTORY = new Set(['CHANGELOG.md', 'docs/decisions.md'])

const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|db|sqlite|tgz|gz)$/i

/** The repository's files (and new ones not yet added), but what git ignores. */
function trackedText(): { path: string; text: string }[] {
  const paths = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((path) => path && !BINARY.test(path))
  return paths.flatMap((path) => {
    try {
      return [{ path, text: readFileSync(`${ROOT}/${path}`, 'utf8') }]
    } catch {
      return [] // listed but not in the work tree (deleted, not yet staged)
    }
  })
}

const files = trackedText()

/** Written in two pieces, so that this file does not hold what it looks for. */
const OUTSIDE = ['DESIGN' + ' §', 'DESIGN' + '.md']

/** `docs/<page>.md, "<heading>"`, with or without the comma, and maybe `and "<another>"`. */
const POINTER = /docs\/([a-z0-9-]+)\.md`?,?\s+"([^"]+)"(?:\s+and\s+"([^"]+)")?/g

/** A quoted heading may run over a comment's line break: ` * ` and `// ` are not its words. */
const words = (quoted: string) =>
  quoted
    .replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, ' ')
    .replaceAll('`', '')
    .trim()

/** A heading's words, without Markdown's backticks or a numbered entry's "12. ". */
function headingsOf(page: string): string[] | undefined {
  const doc = files.find((f) => f.path === `docs/${page}.md`)
  return doc?.text
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => words(line.replace(/^#+ /, '')).replace(/^\d+\. /, ''))
}

/** A pointer may name a heading by its first words, up to a parenthesis, a colon or a comma. */
const names = (heading: string, name: string) =>
  heading === name || [' (', ':', ','].some((next) => heading.startsWith(name + next))

/** A path the docs write in backticks, from the repository's root: `packages/sandbox/src/core/`. */
const PATH = /`((?:packages|test|bench|dev|docs)\/[\w./-]+)`/g

/** A Markdown link or image, `[words](target)`, outside code: its target. */
const LINK = /\]\(([^)\s]+)\)/g

/** The pages a reader follows links through. */
const PAGE = /^(README|CONTRIBUTING)\.md$|^docs\/.*\.md$/

/** A page's text without its code, where a link is only an example. */
const prose = (text: string) => text.replace(/^```[^]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, `-` for spaces. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of text.replace(/^```[^]*?^```/gm, '').split('\n')) {
    const heading = /^#{1,6} (.*)/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-')
    const n = seen.get(slug)
    seen.set(slug, (n ?? -1) + 1)
    anchors.add(n === undefined ? slug : `${slug}-${n + 1}`)
  }
  return anchors
}

/** Build outputs, which a checkout holds only once built. */
const BUILT = /(^|\/)dist(\/|$)/

describe('references', () => {
  it('never point at a design document outside the repository', () => {
    const found = files
      .filter((f) => !HISTORY.has(f.path))
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
          .filter(({ line }) => OUTSIDE.some((s) => line.includes(s)))
          .map(({ at }) => at),
      )
    expect(found, 'point at a page of docs/ instead').toEqual([])
  })

  it('name a page of docs/ and one of its headings', () => {
    const broken: string[] = []
    let pointers = 0
    for (const f of files) {
      if (f.path === 'CHANGELOG.md') continue
      for (const m of f.text.matchAll(POINTER)) {
        const [, page, ...quoted] = m
        const headings = headingsOf(page!)
        const line = f.text.slice(0, m.index).split('\n').length
        for (const name of quoted.filter((q) => q !== undefined).map(words)) {
          pointers++
          if (!headings) broken.push(`${f.path}:${line}: no docs/${page}.md`)
          else if (!headings.some((h) => names(h, name)))
            broken.push(`${f.path}:${line}: docs/${page}.md has no heading "${name}"`)
        }
      }
    }
    expect(broken).toEqual([])
    expect(pointers).toBeGreaterThan(100)
  })

  it("name the repository's own files and folders, in the docs", () => {
    const known = new Set(files.map((f) => f.path))
    for (const f of files) {
      const parts = f.path.split('/')
      for (let i = 1; i < parts.length; i++) known.add(parts.slice(0, i).join('/'))
    }
    const missing: string[] = []
    for (const f of files) {
      if (!PAGE.test(f.path)) continue
      for (const m of f.text.matchAll(PATH)) {
        const path = m[1]!.replace(/[/.]+$/, '')
        if (BUILT.test(path) || known.has(path)) continue
        missing.push(`${f.path}:${f.text.slice(0, m.index).split('\n').length}: ${path}`)
      }
    }
    expect(missing, 'a file moved: write where it is now').toEqual([])
  })

  it('link, in the docs, to a file of the repository and a heading of its page', () => {
    const known = new Map(files.map((f) => [f.path, f.text]))
    const broken: string[] = []
    for (const f of files) {
      if (!PAGE.test(f.path)) continue
      for (const m of prose(f.text).matchAll(LINK)) {
        const target = m[1]!
        if (/^(https?|mailto):/.test(target)) continue
        const [path, anchor] = target.split('#') as [string, string | undefined]
        const page = path ? posix.normalize(posix.join(posix.dirname(f.path), path)) : f.path
        if (!existsSync(`${ROOT}/${page}`)) broken.push(`${f.path}: ${target}: no file ${page}`)
        else if (anchor && page.endsWith('.md') && !anchorsOf(known.get(page) ?? '').has(anchor))
          broken.push(`${f.path}: ${target}: no heading for #${anchor}`)
      }
    }
    expect(broken, 'a page or heading moved: link to where it is now').toEqual([])
  })
})
