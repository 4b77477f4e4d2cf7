import { createHmac, createPrivateKey, timingSafeEqual } from 'node:crypto'
import type { Vault } from '../vault/vault.js'

/**
 * The authorization server's keys, derived from the vault key so that every replica sharing
 * VAULT_KEY has the same ones without storing any: a cookie signed by one replica is accepted by
 * the next, and the JWKS is the same whichever replica answers.
 */

/**
 * oidc-provider signs its cookies (session, interaction) with these (keygrip): the first signs,
 * every one verifies, so cookies signed before a vault key rotation stay valid.
 */
export const cookieKeys = (vault: Vault) =>
  vault.deriveKeys('oidc-provider cookie signing').map((key) => key.toString('base64url'))

/**
 * The JWKS. The connector issues opaque access tokens and no ID tokens, so nothing is signed with
 * it today; oidc-provider needs a signing key all the same. An Ed25519 private key is any 32 bytes,
 * so it is derived directly: the same on every replica, never written anywhere.
 */
export function signingJwks(vault: Vault) {
  const seed = vault.deriveKey('oidc-provider signing key ed25519')
  const pkcs8 = Buffer.concat([ED25519_PKCS8_PREFIX, seed])
  const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({
    format: 'jwk',
  })
  return { keys: [{ ...jwk, use: 'sig', alg: 'EdDSA' }] }
}

/** RFC 8410 PrivateKeyInfo for Ed25519, up to the 32 key bytes. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/**
 * CSRF tokens for the connector's own forms: a MAC of what the form acts on (an interaction
 * uid), under a key derived from the vault. Stateless, so any replica checks what another issued.
 */
export class FormTokens {
  readonly #keys: Buffer[]

  constructor(vault: Vault, purpose: string) {
    this.#keys = vault.deriveKeys(`form token: ${purpose}`)
  }

  issue(subject: string): string {
    return mac(this.#keys[0]!, subject)
  }

  check(subject: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0) return false
    const presented = Buffer.from(token)
    return this.#keys.some((key) => {
      const expected = Buffer.from(mac(key, subject))
      return expected.length === presented.length && timingSafeEqual(expected, presented)
    })
  }
}

const mac = (key: Buffer, subject: string) =>
  createHmac('sha256', key).update(subject, 'utf8').digest('base64url')

/** The connector's forms, each with tokens of its own: one form's token never passes another's. */
export type FormPurpose = 'consent' | 'connections' | 'approval'

export type FormPurposes = Readonly<Record<FormPurpose, FormTokens>>

export const formTokensOf = (vault: Vault): FormPurposes => ({
  consent: new FormTokens(vault, 'consent'),
  connections: new FormTokens(vault, 'connections'),
  approval: new FormTokens(vault, 'approval'),
})
