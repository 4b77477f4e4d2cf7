import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { ClientCapabilities } from '@modelcontextprotocol/server'
import type { Vault } from '../vault/vault.js'
import { elicitationModes, type ElicitationModes } from './elicitation-modes.js'

/**
 * A 2025-11-25 client's session, as the connector hands it out: the questions it said at
 * `initialize` that it can answer in its own interface (elicitation, as a form or by opening a
 * page), for which grant, signed. It is the `Mcp-Session-Id` of the initialize answer, which the
 * client sends back with every request; every replica reads it with the vault's key, and none
 * stores anything. It grants nothing: every request is its bearer token's, and a session of
 * another grant is refused.
 */
export interface LegacySession extends ElicitationModes {
  grantId: string
  /** The session, digested: what its questions and answers are routed by. */
  key: string
}

/** A session is read for a week: a client that runs longer connects again. */
const LIFETIME_SECONDS = 7 * 24 * 3600
const VERSION = 's1'

export class LegacySessions {
  readonly #key: Buffer

  constructor(vault: Pick<Vault, 'deriveKeys'>) {
    this.#key = vault.deriveKeys('mcp: legacy session')[0]!
  }

  /**
   * The session to hand a client that declared `capabilities` at initialize; undefined when it
   * can answer no question (nothing to remember).
   */
  mint(grantId: string, capabilities: ClientCapabilities | undefined, now = Date.now()) {
    const modes = elicitationModes(capabilities)
    if (!modes) return undefined
    const claims = {
      g: grantId,
      f: modes.form ? 1 : 0,
      u: modes.url ? 1 : 0,
      t: Math.floor(now / 1000),
    }
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url')
    return `${VERSION}.${body}.${this.#mac(body)}`
  }

  /** The session a request names, if it is one of ours, alive, and of `grantId`. */
  read(header: string | null | undefined, grantId: string, now = Date.now()) {
    const [version, body, mac] = header?.split('.') ?? []
    if (version !== VERSION || !body || !mac) return undefined
    const expected = Buffer.from(this.#mac(body))
    const given = Buffer.from(mac)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
    let claims: { g?: unknown; f?: unknown; u?: unknown; t?: unknown }
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    } catch {
      return undefined
    }
    if (claims.g !== grantId || typeof claims.t !== 'number') return undefined
    if (claims.t + LIFETIME_SECONDS < now / 1000) return undefined
    return {
      grantId,
      form: claims.f === 1,
      url: claims.u === 1,
      key: createHash('sha256').update(header!).digest('base64url'),
    } satisfies LegacySession
  }

  #mac(body: string) {
    return createHmac('sha256', this.#key).update(body).digest('base64url')
  }
}
