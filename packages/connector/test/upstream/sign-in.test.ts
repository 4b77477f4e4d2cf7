import { beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/open.js'
import type { Upstream } from '../../src/upstream/index.js'
import { UpstreamAuthorizationError } from '../../src/upstream/index.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  accessWorks,
  atProvider,
  newVault,
  refreshWorks,
  sqliteStoreForSuite,
  upstreamFor,
} from './harness.js'

const sandbox = sandboxForSuite()
const newStore = sqliteStoreForSuite()

let store: Store
let upstream: Upstream
/** Token answers as the connector received them, to check they were revoked afterwards. */
const issued: { access_token: string; refresh_token?: string }[] = []

beforeAll(async () => {
  let dataDir: string
  ;({ store, dataDir } = await newStore())
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init)
    if (String(input).endsWith('/oauth/token') && res.ok) issued.push(await res.clone().json())
    return res
  }
  upstream = upstreamFor(sandbox, { store, vault: newVault(dataDir), fetch: recording })
})

describe('sign-in through the provider', () => {
  it('asks for identity only', async () => {
    const url = await upstream.beginSignIn('/connections?x=1')
    expect(url.searchParams.get('scope')).toBe('openid')
    expect(url.searchParams.get('access_type')).toBeNull()
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  })

  it('returns the identity, revokes the provider’s token at once, and stores nothing', async () => {
    const callback = await atProvider(
      await upstream.beginSignIn('/connections?x=1'),
      'Allow',
      'carol',
    )
    issued.length = 0
    expect(await upstream.completeSignIn(callback)).toEqual({
      subject: 'carol',
      returnTo: '/connections?x=1',
    })
    expect(issued).toHaveLength(1)
    const tokens = issued[0]!
    expect(await accessWorks(sandbox, tokens.access_token)).toBe(false)
    expect(await refreshWorks(sandbox, tokens.refresh_token!)).toBe(false)
    expect(await store.db.selectFrom('upstream_credentials').selectAll().execute()).toEqual([])
    // Its pending state is used up too.
    expect(await upstream.kindOf(callback)).toBeUndefined()
  })

  it('says "denied", "sign in again", when the person declines', async () => {
    const callback = await atProvider(await upstream.beginSignIn('/connections'), 'Deny')
    const error = await upstream.completeSignIn(callback).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamAuthorizationError)
    expect(error).toMatchObject({
      code: 'denied',
      message: expect.stringMatching(/sign in again\.$/),
    })
  })

  it('only returns to a path of the connector (no open redirect)', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      'x',
      '',
    ]) {
      await expect(upstream.beginSignIn(returnTo)).rejects.toThrow(TypeError)
    }
  })
})
