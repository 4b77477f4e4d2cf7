import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VaultKeyError } from '../../src/vault/errors.js'
import { parseKeyList } from '../../src/vault/keys.js'

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b))

describe('parseKeyList (the VAULT_KEY format)', () => {
  it('reads a key written in hex, base64 or base64url, with or without padding, as one key', () => {
    fc.assert(
      fc.property(bytes32, (key) => {
        const spellings = [
          key.toString('hex'),
          key.toString('hex').toUpperCase(),
          key.toString('base64'),
          key.toString('base64').replace(/=$/, ''),
          key.toString('base64url'),
        ]
        const ids = spellings.map((text) => parseKeyList(text, 'VAULT_KEY')[0]?.id)
        expect(new Set(ids).size).toBe(1)
        expect(ids[0]).toMatch(/^[0-9a-f]{16}$/)
      }),
    )
  })

  it('keeps the order of a comma-separated list, without duplicates', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)]
    const keys = parseKeyList(
      ` ${a.toString('base64')} , ${b.toString('hex')},${a.toString('hex')}`,
      'VAULT_KEY',
    )
    expect(keys.map((key) => key.id)).toEqual([
      parseKeyList(a.toString('hex'), 'x')[0]!.id,
      parseKeyList(b.toString('hex'), 'x')[0]!.id,
    ])
  })

  it('gives different keys different ids, none of which reveals the key', () => {
    fc.assert(
      fc.property(bytes32, bytes32, (a, b) => {
        fc.pre(!a.equals(b))
        const [ka] = parseKeyList(a.toString('hex'), 'VAULT_KEY')
        const [kb] = parseKeyList(b.toString('hex'), 'VAULT_KEY')
        expect(ka!.id).not.toBe(kb!.id)
        expect(a.toString('hex')).not.toContain(ka!.id)
      }),
    )
  })

  const malformed = {
    'a passphrase': 'correct horse battery staple',
    'a 16-byte key': randomBytes(16).toString('base64'),
    'a 31-byte hex key': randomBytes(31).toString('hex'),
    'a 33-byte key': randomBytes(33).toString('base64'),
    'hex with a stray character': `${randomBytes(32).toString('hex').slice(1)}g`,
  }
  it.each(Object.entries(malformed))(
    'refuses %s, naming VAULT_KEY and the format, without echoing it',
    (_, text) => {
      const attempt = () => parseKeyList(text, 'VAULT_KEY')
      expect(attempt).toThrow(VaultKeyError)
      expect(attempt).toThrow(/VAULT_KEY/)
      expect(attempt).toThrow(/32-byte keys .* 64 hex digits or as base64/)
      try {
        attempt()
      } catch (error) {
        expect((error as Error).message).not.toContain(text)
      }
    },
  )

  it('refuses a list without keys', () => {
    expect(() => parseKeyList(' , ', 'VAULT_KEY')).toThrow(/^VAULT_KEY holds no key: expected/)
  })

  it('says which key of a list is malformed', () => {
    const text = `${randomBytes(32).toString('hex')},not-a-key`
    expect(() => parseKeyList(text, 'VAULT_KEY')).toThrow(
      /^key 2 of 2 in VAULT_KEY is not a valid key/,
    )
  })
})
