import { describe, expect, it } from 'vitest'
import {
  MAX_REFUSALS,
  REFUSAL_MEMORY_MS,
  RefusedDocuments,
} from '../../src/auth/client-metadata-refusals.js'

/**
 * The memory of refused client metadata documents (what it stops is in
 * test/security/client-metadata-ssrf.test.ts): a minute per refusal, and bounded in size.
 */
describe('the memory of refused metadata documents', () => {
  it('forgets a refusal after a minute', () => {
    let now = 0
    const refused = new RefusedDocuments(() => now)
    refused.add('https://a.example/client.json')
    now = REFUSAL_MEMORY_MS - 1
    expect(refused.has('https://a.example/client.json')).toBe(true)
    expect(refused.has('https://b.example/client.json')).toBe(false)
    now = REFUSAL_MEMORY_MS
    expect(refused.has('https://a.example/client.json')).toBe(false)
  })

  it(`keeps at most ${MAX_REFUSALS}, forgetting the oldest first`, () => {
    const refused = new RefusedDocuments(() => 0)
    const url = (n: number) => `https://client.example/${n}.json`
    for (let n = 0; n <= MAX_REFUSALS; n++) refused.add(url(n))
    expect(refused.has(url(0))).toBe(false)
    expect(refused.has(url(1))).toBe(true)
    expect(refused.has(url(MAX_REFUSALS))).toBe(true)
  })
})
