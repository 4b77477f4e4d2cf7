import { errors, type Client, type Provider } from 'oidc-provider'
import type { Store } from '../store/open.js'
import { claimRecordOnce } from './adapter.js'

/**
 * Clients that authenticate at the token endpoint with a signed assertion (`private_key_jwt`,
 * RFC 7523; ChatGPT does). oidc-provider verifies the assertion itself: the signature against the
 * client's keys from its `jwks_uri`, `iss` and `sub` the client, `aud` the issuer or the token
 * endpoint, `exp` and `jti` present. What is added here:
 *
 * - the algorithms: RS256, PS256, ES256 and EdDSA, no shared-secret ones;
 * - `exp` bounded: an assertion may live at most `MAX_ASSERTION_SECONDS`, so none is made to
 *   serve for days, and the memory of used `jti`s stays short;
 * - a `jti` used once across every replica: one conditional insert in the store, where
 *   oidc-provider would look it up and then write it (two replicas could both pass);
 * - the keys kept: oidc-provider builds a client of a metadata document anew on each request,
 *   and with it an empty key set, so the keys would be fetched on every token request. Here a
 *   client's key set is kept between requests, for as long as its `jwks_uri` answer allows (at
 *   least a minute, oidc-provider's rule), and an assertion signed by a key it does not know
 *   fetches the keys once more (a rotation), at most once every `UNKNOWN_KEY_REFETCH_MS`.
 */

export const CLIENT_ASSERTION_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA']

/** An hour, as Okta's bound and Google's for service account assertions. */
export const MAX_ASSERTION_SECONDS = 60 * 60

/** However many unknown keys are named, a client's keys are fetched again at most this often. */
export const UNKNOWN_KEY_REFETCH_MS = 30_000

/** Clients whose key sets are kept (each a few keys); beyond it the oldest is let go. */
const MAX_KEPT_KEY_SETS = 1_000

/** For oidc-provider's `assertJwtClientAuthClaimsAndHeader`: runs after the signature holds. */
export function boundAssertionLifetime(_ctx: unknown, claims: { exp?: number }) {
  const left = (claims.exp ?? 0) - Math.floor(Date.now() / 1000)
  if (left > MAX_ASSERTION_SECONDS) {
    throw new errors.InvalidClientAuth(
      `the client assertion's exp is ${left} s away; at most ${MAX_ASSERTION_SECONDS} s is accepted`,
    )
  }
}

/** Makes a client assertion's `jti` single use across every replica sharing `store`. */
export function useAssertionsOnce(provider: Provider, store: Store): void {
  provider.ReplayDetection.unique = (iss: string, jti: string, exp: number) =>
    claimRecordOnce(store, 'ReplayDetection', `${iss} ${jti}`, exp * 1000)
}

/** oidc-provider's key set of one client (lib/models/client.js), as far as this uses it. */
interface ClientKeyStore {
  freshUntil?: number
  fresh(): boolean
  selectForVerify(query: { alg?: string; kid?: string }): unknown[]
}

type ClientWithKeys = Client & { jwksUri?: string; asymmetricKeyStore: ClientKeyStore }

/** Keeps each client's key set between requests; see the top of this file. */
export function keepClientKeys(provider: Provider, now: () => number = Date.now): void {
  const kept = new Map<string, ClientKeyStore>()
  const watched = new WeakSet<ClientKeyStore>()
  const { Client } = provider
  const find = Client.find.bind(Client)
  Client.find = async (id: string) => {
    const client = (await find(id)) as ClientWithKeys | undefined
    if (!client?.jwksUri || client.clientAuthMethod !== 'private_key_jwt') return client
    const slot = `${client.clientId} ${client.jwksUri}`
    const keys = kept.get(slot)
    const own = Object.getOwnPropertyDescriptor(client, 'asymmetricKeyStore')
    if (keys && own?.configurable) {
      // A client built anew (from its document): it takes the kept key set.
      Object.defineProperty(client, 'asymmetricKeyStore', { value: keys, configurable: false })
    } else if (!keys) {
      while (kept.size >= MAX_KEPT_KEY_SETS) kept.delete(kept.keys().next().value!)
      const own = client.asymmetricKeyStore
      if (!watched.has(own)) refetchOnUnknownKey(own, now)
      watched.add(own)
      kept.set(slot, own)
    }
    return client
  }
}

/**
 * oidc-provider fetches a client's keys again only once its set is stale: a key rotated in
 * within the set's lifetime would be refused until then. An assertion naming a key the set
 * does not hold marks it stale, so that oidc-provider's own verification fetches and tries again.
 */
function refetchOnUnknownKey(keys: ClientKeyStore, now: () => number): void {
  const select = keys.selectForVerify.bind(keys)
  let lastForced = -Infinity
  keys.selectForVerify = (query) => {
    const found = select(query)
    if (found.length === 0 && keys.fresh() && now() - lastForced >= UNKNOWN_KEY_REFETCH_MS) {
      lastForced = now()
      keys.freshUntil = 0
    }
    return found
  }
}
