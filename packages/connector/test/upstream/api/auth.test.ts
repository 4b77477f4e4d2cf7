import { describe, expect, it, vi } from 'vitest'
import { CredentialRevokedError } from '../../../src/upstream/index.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { apiFor, newUser, requestsSince, TASKS } from './harness.js'

const sandbox = sandboxForSuite()

const listLists = { service: 'tasks', method: 'GET', path: '/lists', idempotent: true } as const
const createList = {
  service: 'tasks',
  method: 'POST',
  path: '/lists',
  body: { title: 'After a refresh' },
  idempotent: false,
} as const

/** A grant whose current token the provider no longer takes (it expired, say). */
function staleGrant(afterUnauthorized: (rejected: string) => Promise<string>) {
  const upstreamTokenAfterUnauthorized = vi.fn(afterUnauthorized)
  return {
    upstreamAccessToken: vi.fn(async () => 'stale-token'),
    upstreamTokenAfterUnauthorized,
  }
}

describe('UpstreamApi: the bearer token', () => {
  it('after a 401, asks the grant once for a fresh token and sends the call again with it', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = staleGrant(() => sandbox.token(user))
    const since = (await requestsSince(sandbox)).length
    const result = await api.call(listLists, grant)
    expect(result.status).toBe(200)
    expect(grant.upstreamTokenAfterUnauthorized).toHaveBeenCalledTimes(1)
    expect(grant.upstreamTokenAfterUnauthorized).toHaveBeenCalledWith('stale-token')
    expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual([401, 200])
  })

  it('sends a create again after a 401: the provider refused it, nothing was done', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = staleGrant(() => sandbox.token(user))
    const since = (await requestsSince(sandbox)).length
    const result = await api.call(createList, grant)
    expect(result.status).toBe(200)
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'POST', path: `${TASKS}/lists`, status: 401 },
      { method: 'POST', path: `${TASKS}/lists`, status: 200 },
    ])
  })

  it("lets the grant's CredentialRevokedError through untouched", async () => {
    const api = apiFor(sandbox)
    const revoked = new CredentialRevokedError('cred-1')
    const grant = staleGrant(() => Promise.reject(revoked))
    const since = (await requestsSince(sandbox)).length
    await expect(api.call(listLists, grant)).rejects.toBe(revoked)
    expect(await requestsSince(sandbox, since)).toHaveLength(1)
  })

  it('a 401 to the fresh token goes back to the grant, whose verdict propagates', async () => {
    const api = apiFor(sandbox)
    const revoked = new CredentialRevokedError('cred-2')
    const grant = staleGrant(async (rejected) => {
      if (rejected === 'stale-token') return 'also-rejected'
      throw revoked
    })
    const since = (await requestsSince(sandbox)).length
    await expect(api.call(listLists, grant)).rejects.toBe(revoked)
    expect(grant.upstreamTokenAfterUnauthorized.mock.calls).toEqual([
      ['stale-token'],
      ['also-rejected'],
    ])
    expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual([401, 401])
  })

  it('lets an error of the first token request through untouched, sending nothing', async () => {
    const api = apiFor(sandbox)
    const failure = new Error('the vault is locked')
    const since = (await requestsSince(sandbox)).length
    await expect(
      api.call(listLists, {
        upstreamAccessToken: () => Promise.reject(failure),
        upstreamTokenAfterUnauthorized: () => Promise.reject(new Error('not called')),
      }),
    ).rejects.toBe(failure)
    expect(await requestsSince(sandbox, since)).toEqual([])
  })
})
