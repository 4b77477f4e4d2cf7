import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * The history a newcomer reads: every commit since the rule was set has a subject of at most 72
 * characters and, unless it merges a branch, a body that says why (CONTRIBUTING.md). Older
 * commits stay as they landed; CHANGELOG.md tells their story.
 */

/** The last commit before the rule. */
const RULE_SET_AFTER = 'ff44e06d6f0b228312ced63c1f12b49316b71a16'

const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })

/** Commits since the rule, or only the newest where the checkout's history is cut short. */
function commitsSinceRule(): string[] {
  try {
    git('cat-file', '-e', `${RULE_SET_AFTER}^{commit}`)
    return git('rev-list', 'HEAD', `^${RULE_SET_AFTER}`).split('\n').filter(Boolean)
  } catch {
    return [git('rev-parse', 'HEAD').trim()]
  }
}

describe('the history', () => {
  const commits = commitsSinceRule()

  it.each(commits)('commit %s: a subject of at most 72 characters, and why in the body', (sha) => {
    const [subject = '', ...rest] = git('log', '-1', '--format=%B', sha).split('\n')
    const merge = git('log', '-1', '--format=%P', sha).trim().split(' ').length > 1
    expect(subject.length, subject).toBeLessThanOrEqual(72)
    expect(subject, 'a subject in words, not a prefix').not.toMatch(/^(wip|fixup!|squash!)/i)
    if (!merge) expect(rest.join('\n').trim().length, `${subject}: no body`).toBeGreaterThan(0)
  })
})
