import { createHash, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto'

/** What an ID token says: who signed in, to which client, at which issuer. */
interface IdTokenClaims {
  issuer: string
  clientId: string
  user: string
  /** Echoed from the authorization request, so the client can tie the token to it. */
  nonce?: string
  /** The access token issued beside it, bound through `at_hash`. */
  accessToken: string
}

const LIFETIME_SECONDS = 3600

interface SigningKey {
  kid: string
  privateKey: KeyObject
  publicKey: KeyObject
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

/**
 * OpenID Connect ID tokens: RS256 JWTs signed with a key pair this sandbox makes for itself,
 * published at its JWKS endpoint. The key is made on first use (RSA key generation takes a
 * moment, and most sandboxes never sign anything) and lives as long as the process.
 */
export class IdTokenSigner {
  #key: Promise<SigningKey> | undefined

  #signingKey(): Promise<SigningKey> {
    this.#key ??= new Promise((resolve, reject) =>
      generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) => {
        if (error) reject(error)
        else resolve({ kid: randomBytes(20).toString('hex'), privateKey, publicKey })
      }),
    )
    return this.#key
  }

  async sign(claims: IdTokenClaims): Promise<string> {
    const { kid, privateKey } = await this.#signingKey()
    const now = Math.floor(Date.now() / 1000)
    // at_hash: the left half of the access token's SHA-256 (OpenID Connect Core §3.1.3.6).
    const atHash = createHash('sha256').update(claims.accessToken).digest().subarray(0, 16)
    const header = { alg: 'RS256', kid, typ: 'JWT' }
    const payload = {
      iss: claims.issuer,
      azp: claims.clientId,
      aud: claims.clientId,
      sub: claims.user,
      at_hash: atHash.toString('base64url'),
      iat: now,
      exp: now + LIFETIME_SECONDS,
      ...(claims.nonce !== undefined && { nonce: claims.nonce }),
    }
    const input = `${base64url(header)}.${base64url(payload)}`
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`
  }

  /** The public key as a JSON Web Key Set (RFC 7517). */
  async jwks() {
    const { kid, publicKey } = await this.#signingKey()
    return { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] }
  }

  /** The public key by kid, PEM-encoded: the other format Google publishes its keys in. */
  async pems(): Promise<Record<string, string>> {
    const { kid, publicKey } = await this.#signingKey()
    return { [kid]: publicKey.export({ type: 'spki', format: 'pem' }).toString() }
  }
}
