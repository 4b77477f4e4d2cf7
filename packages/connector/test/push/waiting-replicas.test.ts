import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { assistantV1, textOf } from '../mcp/approval-clients.js'
import { selfSignedCertificate } from '../support/certificate.js'
import { describeOnPostgres } from '../support/engines.js'
import { PushService } from '../support/push-service.js'
import { replicasForSuite } from '../support/replicas.js'
import {
  actOnNotification,
  deliveredTo,
  notificationOf,
  pushedApproval,
  turnOnNotifications,
} from './device.js'

/**
 * The call that waits, across replicas on one PostgreSQL database: the change's call is served by
 * one replica, the person's Approve on their device reaches the other, and the waiting call goes
 * on at once with the change made (the decision said through the database's channel).
 */

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
// The replicas are processes of their own: they trust the push service's certificate as a
// development machine would, through Node's extra certificates.
const caFile = join(mkdtempSync(join(tmpdir(), 'countersign-push-ca-')), 'push-ca.pem')
writeFileSync(caFile, tls.cert)

const pushService = new PushService(tls)
beforeAll(() => pushService.start())
afterAll(() => pushService.close())

describeOnPostgres('a waiting call, approved on another replica', (engine) => {
  const replicas = replicasForSuite(() => engine.location(), 2, undefined, {
    DEV_ALLOW_LOOPBACK_PUSH: '1',
    NODE_EXTRA_CA_CERTS: caFile,
    APPROVAL_WAIT_SECONDS: '40',
  })
  const { flow } = replicas

  it('goes on with the change made, on the replica that serves it', async () => {
    const user = 'replicas-device-owner'
    const person = flow.person(user)
    const { tokens } = await flow.connect({ person })
    const providerToken = (
      await flow.request('POST', `${replicas.sandbox.url}/_sandbox/tokens`, {
        json: { user, scopes: ['tasks'] },
      })
    ).body.access_token as string
    const list = await flow.request('POST', `${replicas.sandbox.url}/tasks/v1/lists`, {
      token: providerToken,
      json: { title: 'Groceries' },
    })
    await person.signInToConnections()
    const phone = await turnOnNotifications(person, `${replicas.url}/connections`, pushService)

    replicas.pin(0)
    const assistant = await assistantV1(flow.resource('tasks'), tokens.access_token)
    const calling = assistant.call('create_task', { tasklist: list.body.id, title: 'Buy bread' })
    const [delivered] = await deliveredTo(pushService, phone)
    const id = pushedApproval(delivered!)

    // Everything the device does from here reaches the other replica.
    replicas.pin(1)
    const served = [...replicas.served]
    const shown = await notificationOf(person, replicas.url, id)
    expect(shown.body.title).toBe('Add task "Buy bread" to list "Groceries"?')
    const acted = await actOnNotification(person, replicas.url, id, 'approve', shown.body.csrf!)
    expect(acted.status).toBe(200)
    expect(replicas.served[1]).toBe(served[1]! + 2)
    expect(replicas.served[0]).toBe(served[0])

    const result = await calling
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toMatchObject({ title: 'Buy bread' })
    const tasks = await flow.request(
      'GET',
      `${replicas.sandbox.url}/tasks/v1/lists/${list.body.id}/tasks`,
      { token: providerToken },
    )
    expect(tasks.body.items.map((task: { title: string }) => task.title)).toEqual(['Buy bread'])
    replicas.pin(undefined)
    await assistant.close()
  })
})
