import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { connectorForSuite, describeOnPostgres, digest } from '@countersign/connector/testing'

/**
 * A refresh whose commit the database's departure cut off (docs/threat-model.md, "Refresh token
 * rotation with reuse detection"). On PostgreSQL a refresh is one transaction with its answer,
 * and it marks the refresh token it spends until it knows the commit went through. A mark left
 * behind is a rotation in doubt: the client may never have had its answer. Its retry with the
 * same token is then no replay; within the mark's first seconds it is told to wait; and with
 * no mark, a second use is the replay it always was. The marks are written here as a cut-off
 * commit leaves them; `database-outage.test.ts` cuts real ones off through a proxy.
 */

describeOnPostgres('a refresh in doubt', (engine) => {
  const suite = connectorForSuite({
    connector: async () => ({ databaseUrl: (await engine.location()).databaseUrl }),
  })

  /** What a cut-off commit leaves: `token` spent, its successor stored, the mark `ageMs` old. */
  async function leaveInDoubt(token: string, ageMs: number) {
    await suite.store.db
      .insertInto('oauth_records')
      .values({
        kind: 'UnconfirmedRotation',
        id: digest(token),
        grant_id: null,
        uid: null,
        user_code: null,
        consumed_at: null,
        payload: '{}',
        expires_at: Date.now() - ageMs + 60_000,
      })
      .execute()
  }

  it('a retry of a rotation whose commit was cut off gets tokens, and the grant stands', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('doubt-retry') })
    const lost = await suite.refresh(client, tokens.refresh_token)
    expect(lost.status).toBe(200)
    await leaveInDoubt(tokens.refresh_token, 3_000)

    const retried = await suite.refresh(client, tokens.refresh_token)
    expect(retried.status, retried.text).toBe(200)
    expect((await suite.mcp('tasks', retried.body.access_token)).status).toBe(200)
    // The answer that never arrived is void: its refresh token is gone, and the grant is not.
    const unseen = await suite.refresh(client, lost.body.refresh_token)
    expect(unseen.body.error).toBe('invalid_grant')
    const next = await suite.refresh(client, retried.body.refresh_token)
    expect(next.status, next.text).toBe(200)
    // Taken once: the same token a third time is a replay.
    const third = await suite.refresh(client, tokens.refresh_token)
    expect(third.body.error).toBe('invalid_grant')
    expect((await suite.mcp('tasks', next.body.access_token)).status).toBe(401)
  })

  it('within the first seconds of the mark, a second use is told to try again, then judged', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('doubt-young') })
    expect((await suite.refresh(client, tokens.refresh_token)).status).toBe(200)
    await leaveInDoubt(tokens.refresh_token, 0)

    const early = await suite.refresh(client, tokens.refresh_token)
    expect(early.status).toBe(503)
    expect(early.headers.get('retry-after')).toBe('2')
    expect(early.body.error).toBe('temporarily_unavailable')
    await sleep(2_100)
    expect((await suite.refresh(client, tokens.refresh_token)).status).toBe(200)
  })

  it('a rotation whose successor was used is no retry: a second use is a replay', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('doubt-used') })
    const rotated = await suite.refresh(client, tokens.refresh_token)
    const onward = await suite.refresh(client, rotated.body.refresh_token)
    expect(onward.status).toBe(200)
    await leaveInDoubt(tokens.refresh_token, 3_000)

    const replay = await suite.refresh(client, tokens.refresh_token)
    expect(replay.body.error).toBe('invalid_grant')
    expect((await suite.mcp('tasks', onward.body.access_token)).status).toBe(401)
  })

  it('a confirmed rotation leaves no mark: a second use is a replay', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('doubt-none') })
    const rotated = await suite.refresh(client, tokens.refresh_token)
    const marks = await suite.store.db
      .selectFrom('oauth_records')
      .select('id')
      .where('kind', '=', 'UnconfirmedRotation')
      .where('id', '=', digest(tokens.refresh_token))
      .execute()
    expect(marks).toEqual([])
    const replay = await suite.refresh(client, tokens.refresh_token)
    expect(replay.body.error).toBe('invalid_grant')
    expect((await suite.mcp('tasks', rotated.body.access_token)).status).toBe(401)
  })
})
