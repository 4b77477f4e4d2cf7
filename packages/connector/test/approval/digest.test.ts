import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  approvalKey,
  ArgumentDigests,
  canonicalJson,
  isApprovalId,
  newApprovalId,
} from '../../src/approval/digest.js'
import { Vault } from '../../src/vault/vault.js'

/**
 * What an approval is bound to: the canonical JSON of the call's arguments (same values, same
 * text, whatever the key order), digested under a key of the vault; and its random id.
 */

const vaultOf = (vaultKey: string) =>
  Vault.fromEnvironment({ vaultKey, dataDir: '/nonexistent' }).vault
const newKey = () => randomBytes(32).toString('base64')

describe('canonical JSON', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    )
  })

  it('writes what JSON.stringify writes otherwise: undefined members left out, strings escaped', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, NaN], c: 'é"\n<' })).toBe(
      '{"b":[null,null],"c":"é\\"\\n<"}',
    )
    expect(canonicalJson(undefined)).toBe('null')
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}')
  })

  it('sorts keys by UTF-16 code units, as RFC 8785', () => {
    expect(canonicalJson({ b: 0, B: 0, é: 0, a: 0, '1': 0 })).toBe(
      '{"1":0,"B":0,"a":0,"b":0,"é":0}',
    )
  })

  it('gives the same text for the same values in any key order, and reads back as them', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const shuffled = JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        )
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value))
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })

  it('refuses a bigint', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError)
  })
})

describe('argument digests', () => {
  it('are the same for the same values, and differ when one value differs', () => {
    const digests = new ArgumentDigests(vaultOf(newKey()))
    const [first] = digests.of({ tasklist: 'L1', task: 'T1' })
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    expect(digests.of({ task: 'T1', tasklist: 'L1' })[0]).toBe(first)
    expect(digests.of({ tasklist: 'L1', task: 'T2' })[0]).not.toBe(first)
    expect(digests.of({ tasklist: 'L1', task: 'T1', extra: null })[0]).not.toBe(first)
  })

  it('are keyed by the vault: another key gives another digest; during a rotation both match', () => {
    const [oldKey, newerKey] = [newKey(), newKey()]
    const args = { title: 'Buy milk' }
    const [before] = new ArgumentDigests(vaultOf(oldKey)).of(args)
    expect(new ArgumentDigests(vaultOf(newerKey)).of(args)[0]).not.toBe(before)
    const rotating = new ArgumentDigests(vaultOf(`${newerKey},${oldKey}`)).of(args)
    expect(rotating).toHaveLength(2)
    expect(rotating[1]).toBe(before)
  })
})

describe('approval ids', () => {
  it('are 256 random bits, URL-safe, and stored as their SHA-256', () => {
    const ids = new Set(Array.from({ length: 100 }, newApprovalId))
    expect(ids.size).toBe(100)
    for (const id of ids) {
      expect(isApprovalId(id)).toBe(true)
      expect(Buffer.from(id, 'base64url')).toHaveLength(32)
      expect(approvalKey(id)).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(isApprovalId('../connections')).toBe(false)
    expect(isApprovalId(`${newApprovalId()}x`)).toBe(false)
  })
})
