import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { VaultKeyError } from '../../src/vault/errors.js'
import { KEY_FILE } from '../../src/vault/key-file.js'
import { Vault } from '../../src/vault/vault.js'

const scratch = mkdtempSync(join(tmpdir(), 'countersign-key-file-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const newDataDir = () => join(scratch, `data-${++folders}`)

describe.skipIf(process.platform === 'win32')('the vault key file (VAULT_KEY unset)', () => {
  it('is created in DATA_DIR with mode 0600, and a warning is returned to log', () => {
    const dataDir = newDataDir()
    const { vault, warning } = Vault.fromEnvironment({ dataDir })
    const path = join(dataDir, KEY_FILE)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(warning).toMatch(/VAULT_KEY is not set: created a new vault key in .*vault\.key/)
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toHaveLength(32)
    expect(vault.open(vault.seal('x', 'b'), 'b')).toBe('x')
  })

  it('is used again on the next start, still with a warning', () => {
    const dataDir = newDataDir()
    const first = Vault.fromEnvironment({ dataDir }).vault
    const { vault, warning } = Vault.fromEnvironment({ dataDir })
    expect(vault.keyId).toBe(first.keyId)
    expect(warning).toMatch(/VAULT_KEY is not set: using the vault key in/)
    expect(vault.open(first.seal('kept', 'b'), 'b')).toBe('kept')
  })

  it('is used when VAULT_KEY is empty', () => {
    const dataDir = newDataDir()
    expect(Vault.fromEnvironment({ dataDir, vaultKey: ' ' }).warning).toMatch(/created/)
  })

  it('is refused when others may read it, with the fix in the message', () => {
    const dataDir = newDataDir()
    Vault.fromEnvironment({ dataDir })
    const path = join(dataDir, KEY_FILE)
    chmodSync(path, 0o644)
    const attempt = () => Vault.fromEnvironment({ dataDir })
    expect(attempt).toThrow(VaultKeyError)
    expect(attempt).toThrow(`the vault key file ${path} is readable by others (mode 0644)`)
    expect(attempt).toThrow(`chmod 600 ${path}`)
  })

  it('holds the VAULT_KEY format, so a key list rotates there too', () => {
    const dataDir = newDataDir()
    const old = Vault.fromEnvironment({ dataDir }).vault
    const path = join(dataDir, KEY_FILE)
    const sealed = old.seal('old', 'b')
    writeFileSync(path, `${randomBytes(32).toString('hex')},${readFileSync(path, 'utf8').trim()}\n`)
    const rotated = Vault.fromEnvironment({ dataDir }).vault
    expect(rotated.keyId).not.toBe(old.keyId)
    expect(rotated.open(sealed, 'b')).toBe('old')
  })

  it('is refused when malformed, naming the file and never repeating its content', () => {
    const dataDir = newDataDir()
    Vault.fromEnvironment({ dataDir })
    const path = join(dataDir, KEY_FILE)
    writeFileSync(path, 'not a key at all\n')
    const attempt = () => Vault.fromEnvironment({ dataDir })
    expect(attempt).toThrow(`the vault key file ${path} is not a valid key`)
    expect(attempt).not.toThrow(/not a key at all/)
  })
})
