import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, dims, invalid, LAST_28_DAYS, metrics, table } from './client.js'

const sandbox = sandboxForSuite()

const regexFilter = (
  value: string,
  matchType: string,
  caseSensitive?: boolean,
  fieldName = 'browser',
) => ({ filter: { fieldName, stringFilter: { value, matchType, caseSensitive } } })

describe('regular expressions in analytics filters are RE2', () => {
  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'Chrome(?=x)'],
    ['a lookbehind', '(?<=C)hrome'],
  ])('%s is refused with a 400, as RE2 has none', async (_, pattern) => {
    const u = await analyticsUser(sandbox)
    for (const matchType of ['FULL_REGEXP', 'PARTIAL_REGEXP']) {
      const res = await u.post('report', {
        dateRanges: LAST_28_DAYS,
        metrics: metrics('sessions'),
        dimensionFilter: regexFilter(pattern, matchType),
      })
      expect(invalid(res)).toMatch(/Invalid regular expression for browser/)
    }
  })

  it('a pattern that backtracks exponentially is answered (linear-time matching)', async () => {
    const u = await analyticsUser(sandbox)
    // The answer coming at all is the evidence: a backtracking engine takes minutes on one
    // 23-character title, linear time milliseconds.
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      dimensions: dims('pageTitle'),
      metrics: metrics('eventCount'),
      dimensionFilter: regexFilter('(.*.*)*#', 'FULL_REGEXP', undefined, 'pageTitle'),
    })
    expect(table(report)).toEqual([])
    // And the engine is the linear-time one: it refuses a repetition past RE2's limit of 1000,
    // as RE2 does, where a backtracking engine would take it.
    const res = await u.post('report', {
      dateRanges: LAST_28_DAYS,
      metrics: metrics('sessions'),
      dimensionFilter: regexFilter('x{1001}', 'PARTIAL_REGEXP'),
    })
    expect(invalid(res)).toMatch(/Invalid regular expression for browser/)
  })

  it('matches in either case unless caseSensitive, and FULL_REGEXP matches the whole value', async () => {
    const u = await analyticsUser(sandbox)
    const browsers = async (dimensionFilter: unknown) =>
      table(
        await u.report({
          dateRanges: LAST_28_DAYS,
          dimensions: dims('browser'),
          metrics: metrics('sessions'),
          dimensionFilter,
        }),
      ).map((row) => row.dims[0])
    expect(await browsers(regexFilter('chrome', 'FULL_REGEXP'))).toEqual(['Chrome'])
    expect(await browsers(regexFilter('chrome', 'FULL_REGEXP', true))).toEqual([])
    expect(await browsers(regexFilter('chrom', 'FULL_REGEXP'))).toEqual([])
    expect(await browsers(regexFilter('^chrom', 'PARTIAL_REGEXP'))).toEqual(['Chrome'])
  })
})
