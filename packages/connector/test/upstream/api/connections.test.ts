import { Agent, buildConnector } from 'undici'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { apiError, apiFor, grantFor, newUser } from './harness.js'

const sandbox = sandboxForSuite()

/** An undici Agent like the client's own, counting the connections it opens. */
function countingAgent() {
  const connect = buildConnector({})
  let opened = 0
  const agent = new Agent({
    connect: (options, callback) => {
      opened++
      connect(options, callback)
    },
  })
  return { agent, opened: () => opened }
}

describe('UpstreamApi: connections', () => {
  it('keeps its connection to the provider alive across calls, answers of every kind read', async () => {
    const pool = countingAgent()
    const api = apiFor(sandbox, { dispatcher: pool.agent })
    const grant = await grantFor(sandbox, newUser())
    const lists = { service: 'tasks', method: 'GET', path: '/lists', idempotent: true } as const
    for (let i = 0; i < 10; i++) expect((await api.call(lists, grant)).status).toBe(200)
    // A refusal's body is read as well, so its connection goes back to the pool too.
    const missing = await apiError(
      api.call(
        { ...lists, path: '/lists/{tasklist}', pathParams: { tasklist: 'no-such-list' } },
        grant,
      ),
    )
    expect(missing.kind).toBe('not_found')
    for (let i = 0; i < 10; i++) expect((await api.call(lists, grant)).status).toBe(200)
    // 21 calls one after the other. undici hands a connection back to its pool a tick after the
    // answer ends, so a call made at once may open a second one; then both are reused.
    expect(pool.opened()).toBeLessThanOrEqual(2)
    await api.close()
  })
})
