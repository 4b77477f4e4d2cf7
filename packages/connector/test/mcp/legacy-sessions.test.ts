import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LegacySessions } from '../../src/mcp/legacy-sessions.js'
import { Vault } from '../../src/vault/vault.js'

const scratch = mkdtempSync(join(tmpdir(), 'countersign-sessions-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const sessionsOf = (vaultKey = randomBytes(32).toString('base64')) =>
  new LegacySessions(Vault.fromEnvironment({ vaultKey, dataDir: scratch }).vault)

describe('a 2025-11-25 session id', () => {
  const key = randomBytes(32).toString('base64')
  const sessions = sessionsOf(key)
  const minted = sessions.mint('grant-a', { elicitation: { form: {}, url: {} } })!

  it('is read back by every replica with the same vault key, with what the client declared', () => {
    expect(minted).toMatch(/^s1\.[\w-]+\.[\w-]+$/)
    const read = sessionsOf(key).read(minted, 'grant-a')
    expect(read).toMatchObject({ grantId: 'grant-a', form: true, url: true })
    expect(read?.key).not.toContain(minted)
  })

  it('says which questions the client can answer: an empty elicitation is a form', () => {
    expect(sessions.read(sessions.mint('g', { elicitation: {} }), 'g')).toMatchObject({
      form: true,
      url: false,
    })
    expect(sessions.read(sessions.mint('g', { elicitation: { url: {} } }), 'g')).toMatchObject({
      form: false,
      url: true,
    })
    expect(sessions.mint('g', {})).toBeUndefined()
    expect(sessions.mint('g', undefined)).toBeUndefined()
  })

  it('is not read with another grant, another vault key, altered, made up or a week old', () => {
    expect(sessions.read(minted, 'grant-b')).toBeUndefined()
    expect(sessionsOf().read(minted, 'grant-a')).toBeUndefined()
    const [version, body, mac] = minted.split('.')
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString())
    const otherGrant = Buffer.from(JSON.stringify({ ...claims, g: 'grant-b' })).toString(
      'base64url',
    )
    expect(sessions.read(`${version}.${otherGrant}.${mac}`, 'grant-b')).toBeUndefined()
    expect(sessions.read(`s2.${body}.${mac}`, 'grant-a')).toBeUndefined()
    for (const made of ['', 'abc', 's1..', 's1.e30.x', 'x'.repeat(5000)])
      expect(sessions.read(made, 'grant-a')).toBeUndefined()
    const week = 7 * 24 * 3600 * 1000
    const old = sessions.mint('grant-a', { elicitation: {} }, Date.now() - week - 1000)
    expect(sessions.read(old, 'grant-a')).toBeUndefined()
    const young = sessions.mint('grant-a', { elicitation: {} }, Date.now() - week + 60_000)
    expect(sessions.read(young, 'grant-a')).toBeDefined()
  })
})
