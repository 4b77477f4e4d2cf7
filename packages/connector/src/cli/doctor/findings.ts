/**
 * What `countersign doctor` says of one thing it checked: it holds (`ok`), it must change
 * (`fix`, with what to do), or it is worth knowing and needs nothing now (`note`). Each finding
 * is one line, with lines of detail under it (an exact value to paste, a reminder).
 */
export type Verdict = 'ok' | 'fix' | 'note'

export interface Finding {
  verdict: Verdict
  line: string
  detail?: string[]
}

export const ok = (line: string, ...detail: string[]): Finding => ({ verdict: 'ok', line, detail })
export const fix = (line: string, ...detail: string[]): Finding => ({
  verdict: 'fix',
  line,
  detail,
})
export const note = (line: string, ...detail: string[]): Finding => ({
  verdict: 'note',
  line,
  detail,
})

const MARK: Record<Verdict, string> = { ok: '✓', fix: '✗', note: '·' }

/** The findings as the operator reads them, then the verdict: the first thing to fix, if any. */
export function report(findings: readonly Finding[]): { text: string; exitCode: number } {
  const lines = findings.flatMap(({ verdict, line, detail = [] }) => [
    `${MARK[verdict]} ${line}`,
    ...detail.map((more) => `    ${more}`),
  ])
  const fixes = findings.filter((finding) => finding.verdict === 'fix')
  lines.push('')
  if (fixes.length === 0) lines.push('Everything holds: `countersign start` (npm run connector).')
  else
    lines.push(
      `${fixes.length === 1 ? 'One thing' : `${fixes.length} things`} to change. First: ${fixes[0]!.line}`,
    )
  return { text: lines.join('\n'), exitCode: fixes.length === 0 ? 0 : 1 }
}
