import { describe, expect, it } from 'vitest'
import {
  MAX_REFUSALS,
  REFUSAL_MEMORY_MS,
  RefusedDocuments,
  type DocumentRefusal,
} from '../../src/auth/client-metadata-refusals.js'

const slow: DocumentRefusal = { host: 'a.example', unreachable: true, reason: 'no answer' }

/**
 * The memory of refused client metadata documents (what it stops is in
 * test/security/client-metadata-ssrf.test.ts): a minute per refusal, and bounded in size.
 */
describe('the memory of refused metadata documents', () => {
  it('forgets a refusal after a minute', () => {
    let now = 0
    const refused = new RefusedDocuments(() => now)
    refused.add('https://a.example/client.json', slow)
    now = REFUSAL_MEMORY_MS - 1
    expect(refused.get('https://a.example/client.json')).toEqual(slow)
    expect(refused.get('https://b.example/client.json')).toBeUndefined()
    now = REFUSAL_MEMORY_MS
    expect(refused.get('https://a.example/client.json')).toBeUndefined()
  })

  it(`keeps at most ${MAX_REFUSALS}, forgetting the oldest first`, () => {
    const refused = new RefusedDocuments(() => 0)
    const url = (n: number) => `https://client.example/${n}.json`
    for (let n = 0; n <= MAX_REFUSALS; n++) refused.add(url(n), slow)
    expect(refused.get(url(0))).toBeUndefined()
    expect(refused.get(url(1))).toBeDefined()
    expect(refused.get(url(MAX_REFUSALS))).toBeDefined()
  })
})
