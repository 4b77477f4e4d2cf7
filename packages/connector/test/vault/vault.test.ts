import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { keyIdOfEnvelope } from '../../src/vault/envelope.js'
import { SealedValueError } from '../../src/vault/errors.js'
import { Vault } from '../../src/vault/vault.js'

const scratch = mkdtempSync(join(tmpdir(), 'countersign-vault-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const newKey = () => randomBytes(32).toString('base64')
const vaultOf = (vaultKey: string) => Vault.fromEnvironment({ vaultKey, dataDir: scratch }).vault

describe('Vault', () => {
  const key = newKey()
  const vault = vaultOf(key)

  it('opens what it sealed, for any text and binding', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), (plaintext, binding) => {
        expect(vault.open(vault.seal(plaintext, binding), binding)).toBe(plaintext)
      }),
    )
  })

  it('never seals the same text to the same envelope (a fresh IV each time)', () => {
    const envelopes = new Set(Array.from({ length: 100 }, () => vault.seal('same', 'same')))
    expect(envelopes.size).toBe(100)
  })

  it('names its sealing key in the envelope', () => {
    expect(keyIdOfEnvelope(vault.seal('x', 'b'))).toBe(vault.keyId)
  })

  it('does not open under another binding (a value moved to another record)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (plaintext, bound, other) => {
        fc.pre(bound !== other)
        const sealed = vault.seal(plaintext, bound)
        expect(() => vault.open(sealed, other)).toThrow(SealedValueError)
      }),
    )
  })

  it('does not open when any character of the envelope is changed', () => {
    const sealed = vault.seal('a refresh token', 'credential-1')
    const alphabet = 'abcdef0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZghijklmnopqrstuvwxyz-_.v'
    fc.assert(
      fc.property(
        fc.nat({ max: sealed.length - 1 }),
        fc.constantFrom(...alphabet),
        (index, replacement) => {
          fc.pre(sealed[index] !== replacement)
          const tampered = sealed.slice(0, index) + replacement + sealed.slice(index + 1)
          expect(() => vault.open(tampered, 'credential-1')).toThrow(SealedValueError)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('does not open a truncated or extended envelope', () => {
    const sealed = vault.seal('a refresh token', 'b')
    expect(() => vault.open(sealed.slice(0, -1), 'b')).toThrow(SealedValueError)
    expect(() => vault.open(`${sealed}A`, 'b')).toThrow(SealedValueError)
    expect(() => vault.open(`${sealed}.AAAA`, 'b')).toThrow(SealedValueError)
    expect(() => vault.open('', 'b')).toThrow(SealedValueError)
  })

  it('does not open a value sealed under a key it does not hold, and names that key by id', () => {
    const other = vaultOf(newKey())
    const sealed = other.seal('a refresh token', 'b')
    expect(() => vault.open(sealed, 'b')).toThrow(
      new RegExp(`sealed under key ${other.keyId}, which this vault does not hold`),
    )
  })

  it('seals with the first key and opens with every key of its list (rotation)', () => {
    const older = vaultOf(key)
    const rotated = vaultOf(`${newKey()}, ${key}`)
    const sealedBefore = older.seal('old', 'b')
    expect(rotated.open(sealedBefore, 'b')).toBe('old')
    expect(rotated.keyId).not.toBe(older.keyId)
    expect(keyIdOfEnvelope(rotated.seal('new', 'b'))).toBe(rotated.keyId)
    expect(() => older.open(rotated.seal('new', 'b'), 'b')).toThrow(SealedValueError)
  })

  it('never shows key material or plaintext in errors or when inspected', () => {
    const hexKey = Buffer.from(key, 'base64').toString('hex')
    const canary = `canary-${randomBytes(8).toString('hex')}`
    const sealed = vault.seal(canary, 'b')
    const messages: string[] = [inspect(vault, { showHidden: true, depth: 5 })]
    for (const attempt of [
      () => vault.open(sealed, 'not b'),
      () => vaultOf(newKey()).open(sealed, 'b'),
      () => vault.open(sealed.replace(/.$/, 'x'), 'b'),
    ]) {
      try {
        attempt()
      } catch (error) {
        messages.push(inspect(error))
      }
    }
    expect(messages).toHaveLength(4)
    for (const message of messages) {
      expect(message).not.toContain(key)
      expect(message).not.toContain(hexKey)
      expect(message).not.toContain(canary)
    }
  })

  it('takes its keys from VAULT_KEY without a warning', () => {
    const { warning } = Vault.fromEnvironment({
      vaultKey: newKey(),
      dataDir: join(scratch, 'unused'),
    })
    expect(warning).toBeUndefined()
  })
})
