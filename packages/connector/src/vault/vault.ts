import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import {
  formatEnvelope,
  headerOf,
  IV_BYTES,
  parseEnvelope,
  TAG_BYTES,
  type Envelope,
} from './envelope.js'
import { SealedValueError, VaultKeyError } from './errors.js'
import { loadOrCreateKeyFile } from './key-file.js'
import { parseKeyList, type VaultKey } from './keys.js'

const CIPHER = 'aes-256-gcm'

export interface VaultEnvironment {
  /** VAULT_KEY: unset or empty means the key file in dataDir. */
  vaultKey?: string
  /** DATA_DIR: where the key file lives when VAULT_KEY is not set. */
  dataDir: string
}

export interface ConfiguredVault {
  vault: Vault
  /** Set when the keys came from the key file: for the caller to log at startup. */
  warning?: string
}

/**
 * Seals secrets for storage with AES-256-GCM: a random 96-bit IV per seal, and the caller's
 * binding (what the value belongs to, e.g. a credential id) as additional authenticated data, so
 * that a sealed value copied to another record does not open. It never logs or returns keys.
 */
export class Vault {
  readonly #sealing: VaultKey
  readonly #keys: ReadonlyMap<string, VaultKey>

  private constructor(keys: VaultKey[]) {
    const [first] = keys
    if (!first) throw new VaultKeyError('a vault needs at least one key')
    this.#sealing = first
    this.#keys = new Map(keys.map((key) => [key.id, key]))
  }

  /** Keys from VAULT_KEY (first seals, all open), else from `dataDir/vault.key`, created if new. */
  static fromEnvironment({ vaultKey, dataDir }: VaultEnvironment): ConfiguredVault {
    if (vaultKey !== undefined && vaultKey.trim() !== '') {
      return { vault: new Vault(parseKeyList(vaultKey, 'VAULT_KEY')) }
    }
    const file = loadOrCreateKeyFile(dataDir)
    const what = file.created ? 'created a new vault key in' : 'using the vault key in'
    const warning =
      `VAULT_KEY is not set: ${what} ${file.path} (mode 0600). Back it up: without it the stored ` +
      'upstream credentials cannot be read. Set VAULT_KEY to run several replicas.'
    return { vault: new Vault(file.keys), warning }
  }

  /** The id of the key that seals: values under any other key are due for rotation. */
  get keyId(): string {
    return this.#sealing.id
  }

  /** Whether this vault holds the key a value was sealed under. */
  holds(keyId: string): boolean {
    return this.#keys.has(keyId)
  }

  /**
   * A key for another purpose (cookie signing, CSRF tokens...), derived from the sealing key with
   * HKDF-SHA256 and the purpose as `label`: the same on every replica that shares VAULT_KEY, and
   * telling nothing of the vault key or of the keys for other labels.
   */
  deriveKey(label: string, bytes = 32): Buffer {
    return derive(this.#sealing, label, bytes)
  }

  /**
   * The key for `label` under every key the vault holds, the sealing key's first: for checking
   * what a replica still on the previous key produced, while keys rotate.
   */
  deriveKeys(label: string, bytes = 32): Buffer[] {
    return [...this.#keys.values()].map((key) => derive(key, label, bytes))
  }

  /** Seals `plaintext`, bound to `binding` (which must be given again to open it). */
  seal(plaintext: string, binding: string): string {
    const key = this.#sealing
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv(CIPHER, key.secret, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(additionalData(key.id, binding))
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return formatEnvelope({ keyId: key.id, iv, ciphertext, tag: cipher.getAuthTag() })
  }

  /** Opens a sealed value with any of the vault's keys; throws SealedValueError if it does not. */
  open(sealed: string, binding: string): string {
    const envelope = parseEnvelope(sealed)
    const key = this.#keys.get(envelope.keyId)
    if (!key) {
      throw new SealedValueError(
        `the value is sealed under key ${envelope.keyId}, which this vault does not hold ` +
          '(was it removed from VAULT_KEY before rotation finished?)',
      )
    }
    return decrypt(key, envelope, binding)
  }
}

function decrypt(key: VaultKey, { keyId, iv, ciphertext, tag }: Envelope, binding: string) {
  try {
    const decipher = createDecipheriv(CIPHER, key.secret, iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(additionalData(keyId, binding))
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8')
  } catch {
    throw new SealedValueError(
      'the sealed value does not open: it was altered, or it belongs to another record',
    )
  }
}

const DERIVATION_SALT = Buffer.from('countersign vault derived key', 'utf8')

function derive(key: VaultKey, label: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync('sha256', key.secret, DERIVATION_SALT, label, bytes))
}

/** The header is authenticated too, so the key id cannot be swapped; it holds no newline. */
const additionalData = (keyId: string, binding: string) =>
  Buffer.from(`${headerOf(keyId)}\n${binding}`, 'utf8')
