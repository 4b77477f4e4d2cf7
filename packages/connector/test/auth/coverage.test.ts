import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { covers, CoverageSeal, EVERY_ONE, onlyThese, withOneMore } from '../../src/auth/coverage.js'
import { Vault } from '../../src/vault/vault.js'

/** What a grant covers, and how it is kept: sealed, bound to its grant, failing closed. */

const vault = () =>
  Vault.fromEnvironment({ vaultKey: randomBytes(32).toString('base64'), dataDir: '/nonexistent' })
    .vault

describe('what a grant covers', () => {
  it('every one, or exactly the chosen ids; "@default" as the list it names', () => {
    expect(covers(EVERY_ONE, 'anything')).toBe(true)
    const chosen = onlyThese(['list-a', 'list-b'], 'list-a')
    expect(covers(chosen, 'list-a')).toBe(true)
    expect(covers(chosen, 'list-c')).toBe(false)
    expect(covers(chosen, '@default')).toBe(true)
    expect(covers(onlyThese(['list-b'], 'list-a'), '@default')).toBe(false)
    expect(covers(onlyThese(['https://example.com/']), 'sc-domain:example.com')).toBe(false)
    expect(covers(withOneMore(chosen, 'list-c'), 'list-c')).toBe(true)
    expect(withOneMore(EVERY_ONE, 'list-c')).toBe(EVERY_ONE)
  })

  it('is kept sealed, bound to its grant: nothing of the ids in the clear, no opening for another grant', () => {
    const seal = new CoverageSeal(vault())
    const chosen = onlyThese(['sc-domain:client-one.example', 'https://client-two.example/'])
    const stored = seal.seal('grant-1', chosen)
    expect(stored.coverage).not.toContain('client-one')
    expect(stored.coverage_key_id).toBeTruthy()
    expect(seal.open('grant-1', stored.coverage)).toEqual(chosen)
    // Copied to another grant, or altered, it covers nothing: fail closed.
    expect(seal.open('grant-2', stored.coverage)).toEqual(onlyThese([]))
    const altered = stored.coverage!.slice(0, -4) + 'AAAA'
    expect(seal.open('grant-1', altered)).toEqual(onlyThese([]))
    // Every one keeps nothing.
    expect(seal.seal('grant-1', EVERY_ONE)).toEqual({ coverage: null, coverage_key_id: null })
    expect(seal.open('grant-1', null)).toBe(EVERY_ONE)
  })

  it('a change is a new sealed value: what was opened before never answers for it', () => {
    const seal = new CoverageSeal(vault())
    const before = seal.seal('grant-1', onlyThese(['list-a', 'list-b']))
    expect(covers(seal.open('grant-1', before.coverage), 'list-b')).toBe(true)
    const after = seal.seal('grant-1', onlyThese(['list-a']))
    expect(after.coverage).not.toBe(before.coverage)
    expect(covers(seal.open('grant-1', after.coverage), 'list-b')).toBe(false)
  })
})
