import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvalFlow } from '../approval/flow.js'
import { assistantV1, textOf } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { selfSignedCertificate } from '../support/certificate.js'
import { connectorForSuite } from '../support/connector.js'
import { PushService } from '../support/push-service.js'
import {
  actOnNotification,
  deliveredTo,
  notificationOf,
  pushedApproval,
  turnOnNotifications,
} from './device.js'

/**
 * A change from a client that cannot ask the person (docs/decisions.md, "The call that waits"):
 * the person's device is told through a push service (on loopback, checking every signature and
 * decrypting every payload as the device would), the call waits, and the person's Approve on the
 * notification makes the change in that same call. Declined, the call says so; with no device,
 * the link comes at once; the bound passed, the link comes with word of the notification.
 */

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const pushService = new PushService(tls)
beforeAll(() => pushService.start())
afterAll(() => pushService.close())

const suite = connectorForSuite({
  connector: { push: { allowLoopback: true }, extraCa: tls.cert, approvalWaitSeconds: 30 },
})
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

let people = 0
async function personWithDevice({ device = true } = {}) {
  const user = `device-owner-${++people}`
  const person = suite.person(user)
  const { tokens, grantId } = await flow.connected(user, 'Claude', person)
  const list = await seed(user, 1)
  await person.signInToConnections()
  const phone = device
    ? await turnOnNotifications(person, `${suite.url}/connections`, pushService)
    : undefined
  return { user, person, token: tokens.access_token as string, grantId, phone, ...list }
}

describe('a change whose client cannot ask, for a person with a device', () => {
  it('is told to the device, waits, and is made in the same call once approved there', async () => {
    const p = await personWithDevice()
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const { next } = await upstreamCalls()
    const calling = assistant.call('create_task', { tasklist: p.tasklist, title: 'Buy oat milk' })

    const [delivered] = await deliveredTo(pushService, p.phone!)
    // The push service carries the change's id, and nothing of the person's.
    expect(Object.keys(JSON.parse(delivered!.payload))).toEqual(['approval'])
    expect(delivered!.payload).not.toContain('oat milk')
    expect(delivered!.urgency).toBe('high')
    expect(delivered!.topic).toMatch(/^[0-9a-f]{32}$/)
    expect(delivered!.ttl).toBeGreaterThan(500)
    expect(delivered!.ttl).toBeLessThanOrEqual(600)

    const id = pushedApproval(delivered!)
    const shown = await notificationOf(p.person, suite.url, id)
    expect(shown.status).toBe(200)
    expect(shown.body.title).toBe('Add task "Buy oat milk" to list "Groceries"?')
    expect(shown.body.body).toMatch(
      /^Claude asks, in your Tasks\. Until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
    )
    expect(shown.body.actions.map((a) => a.title)).toEqual(['Approve', 'Decline'])
    // Nothing was sent to the provider while the person had not decided.
    expect((await upstreamCalls(next)).writes).toEqual([])

    const acted = await actOnNotification(p.person, suite.url, id, 'approve', shown.body.csrf!)
    expect(acted).toMatchObject({ status: 200, body: { title: 'Approved' } })

    const result = await calling
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toMatchObject({ title: 'Buy oat milk' })
    const { writes } = await upstreamCalls(next)
    expect(writes.map((w) => `${w.method} ${w.status}`)).toEqual(['POST 200'])

    // Single use: the same action again decides nothing.
    const again = await actOnNotification(p.person, suite.url, id, 'approve', shown.body.csrf!)
    expect(again.status).toBe(410)
    await assistant.close()
  })

  it('says the decline in the same call when the person declines on the device', async () => {
    const p = await personWithDevice()
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const calling = assistant.call('create_task', { tasklist: p.tasklist, title: 'Sell the car' })
    const [delivered] = await deliveredTo(pushService, p.phone!)
    const id = pushedApproval(delivered!)
    const shown = await notificationOf(p.person, suite.url, id)
    await actOnNotification(p.person, suite.url, id, 'decline', shown.body.csrf!)
    const result = await calling
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/declined/i)
    expect(await flow.statusOf(id)).toBe('declined')
    await assistant.close()
  })

  it('keeps a 2026-07-28 client told with progress while it waits, where it asked for it', async () => {
    const p = await personWithDevice()
    const client = new Client(
      { name: 'progress-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await client.connect(
      new StreamableHTTPClientTransport(new URL(suite.resource('tasks')), {
        requestInit: { headers: { authorization: `Bearer ${p.token}` } },
      }),
    )
    const progress: { progress: number; message?: string }[] = []
    const calling = client.callTool(
      { name: 'create_task', arguments: { tasklist: p.tasklist, title: 'Water the plants' } },
      { onprogress: (update) => progress.push(update) },
    )
    const [delivered] = await deliveredTo(pushService, p.phone!)
    await expect.poll(() => progress.length, { timeout: 20_000 }).toBeGreaterThan(0)
    expect(progress[0]!.message).toBe('Waiting for the person to approve on their device')
    const id = pushedApproval(delivered!)
    const shown = await notificationOf(p.person, suite.url, id)
    await actOnNotification(p.person, suite.url, id, 'approve', shown.body.csrf!)
    const result = await calling
    expect(result.isError ?? false).toBe(false)
    expect(result.structuredContent).toMatchObject({ title: 'Water the plants' })
    await client.close()
  })
})

describe('a deletion told to the device', () => {
  it('offers Decline only: it is approved on its page, which a tap opens', async () => {
    const p = await personWithDevice()
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const calling = assistant.call('delete_task', { tasklist: p.tasklist, task: p.ids[0]! })
    const [delivered] = await deliveredTo(pushService, p.phone!)
    const id = pushedApproval(delivered!)
    const shown = await notificationOf(p.person, suite.url, id)
    expect(shown.body.actions.map((a) => a.action)).toEqual(['decline'])
    expect(shown.body.body).toContain('Tap to check it and approve it on its page.')
    const refused = await actOnNotification(p.person, suite.url, id, 'approve', shown.body.csrf!)
    expect(refused.status).toBe(403)
    expect(await flow.statusOf(id)).toBe('pending')
    // Approved on its page, the waiting call makes it.
    await flow.onThePage(p.person, `${suite.url}/approvals/${id}`)
    const result = await calling
    expect(result.isError ?? false, textOf(result)).toBe(false)
    await assistant.close()
  })
})

describe('who a pushed change is told to and decided by', () => {
  it('reaches only its own person’s devices, and another person can neither read nor decide it', async () => {
    const owner = await personWithDevice()
    const other = await personWithDevice()
    const assistant = await assistantV1(suite.resource('tasks'), owner.token)
    const calling = assistant.call('create_task', { tasklist: owner.tasklist, title: 'Private' })
    const [delivered] = await deliveredTo(pushService, owner.phone!)
    const id = pushedApproval(delivered!)
    expect(pushService.delivered.filter((one) => one.device === other.phone!.id)).toEqual([])

    const read = await notificationOf(other.person, suite.url, id)
    expect(read.status).toBe(404)
    expect(JSON.stringify(read.body)).not.toContain('Private')
    // The owner's token, presented by the other person's session, decides nothing.
    const own = await notificationOf(owner.person, suite.url, id)
    const forged = await actOnNotification(other.person, suite.url, id, 'approve', own.body.csrf!)
    expect(forged.status).toBe(404)
    expect(await flow.statusOf(id)).toBe('pending')

    await actOnNotification(owner.person, suite.url, id, 'decline', own.body.csrf!)
    await calling
    await assistant.close()
  })

  it('a signed-out device shows that a change waits, and nothing of it', async () => {
    const p = await personWithDevice()
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const calling = assistant.call('create_task', { tasklist: p.tasklist, title: 'Secret plan' })
    const [delivered] = await deliveredTo(pushService, p.phone!)
    const id = pushedApproval(delivered!)
    const stranger = suite.person('stranger')
    const read = await notificationOf(stranger, suite.url, id)
    expect(read.status).toBe(401)
    expect(read.body).toEqual({
      title: 'A change waits for your approval',
      body: 'Open it to check what it does, then approve or decline.',
      actions: [],
    })
    const own = await notificationOf(p.person, suite.url, id)
    await actOnNotification(p.person, suite.url, id, 'decline', own.body.csrf!)
    await calling
    await assistant.close()
  })
})

describe('a person with no device', () => {
  it('gets the link at once, and nothing is pushed', async () => {
    const p = await personWithDevice({ device: false })
    const before = pushService.delivered.length
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const result = await assistant.call('create_task', { tasklist: p.tasklist, title: 'Call mum' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^Not done yet: this change needs the person’s approval\./)
    expect(pushService.delivered.length).toBe(before)
    await assistant.close()
  })
})

describe('devices on the connections page', () => {
  it('lists each device by its browser and system, and Remove stops its notifications', async () => {
    const p = await personWithDevice()
    const page = await (await p.person.fetch('GET', `${suite.url}/connections`)).text()
    expect(page).toContain('Devices that show notifications (1)')
    expect(page).toContain('Chrome on Android')
    const id = /name="device" value="([^"]+)"/.exec(page)![1]!
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    const removed = await p.person.fetch('POST', `${suite.url}/connections/devices/remove`, {
      csrf,
      device: id,
    })
    expect(removed.status).toBe(200)
    expect(await removed.text()).toContain('That device no longer shows your notifications.')
    const before = pushService.delivered.length
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const result = await assistant.call('create_task', { tasklist: p.tasklist, title: 'Nope' })
    expect(textOf(result)).toMatch(/^Not done yet/)
    expect(pushService.delivered.length).toBe(before)
    await assistant.close()
  })

  it('refuses a subscription to a push service on a private network, saying why', async () => {
    const p = await personWithDevice({ device: false })
    const page = await (await p.person.fetch('GET', `${suite.url}/connections`)).text()
    const csrf = /data-csrf="([^"]+)"/.exec(page)![1]!
    const device = pushService.device()
    const res = await p.person.fetch('POST', `${suite.url}/connections/devices`, {
      csrf,
      subscription: JSON.stringify({ ...device.subscription, endpoint: 'https://10.0.0.7/push/x' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      message: 'The push endpoint names an address on a private network.',
    })
    const listed = await suite.store.db
      .selectFrom('push_devices')
      .select('id')
      .where('account', '=', p.user)
      .execute()
    expect(listed).toEqual([])
  })

  it('erases the person’s devices when their last connection ends', async () => {
    const p = await personWithDevice()
    const page = await (await p.person.fetch('GET', `${suite.url}/connections`)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    await p.person.fetch('POST', `${suite.url}/connections/disconnect`, { csrf, grant: p.grantId })
    const left = await suite.store.db
      .selectFrom('push_devices')
      .select('id')
      .where('account', '=', p.user)
      .execute()
    expect(left).toEqual([])
  })
})

describe('the bound of the wait', () => {
  const short = connectorForSuite({
    connector: { push: { allowLoopback: true }, extraCa: tls.cert, approvalWaitSeconds: 1 },
  })
  const shortFlow = approvalFlow(short)
  const shortTasks = taskFixtures(short)

  it('passed with nobody answering, the call ends with the link and word of the notification', async () => {
    const user = 'unanswered'
    const person = short.person(user)
    const { tokens } = await shortFlow.connected(user, 'Claude', person)
    const { tasklist } = await shortTasks.seed(user, 1)
    await person.signInToConnections()
    const phone = await turnOnNotifications(person, `${short.url}/connections`, pushService)
    const assistant = await assistantV1(short.resource('tasks'), tokens.access_token as string)
    const result = await assistant.call('create_task', { tasklist, title: 'Later' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(
      /^A notification went to the person’s devices, and they have not decided yet\. Not done yet/,
    )
    expect(await deliveredTo(pushService, phone)).toHaveLength(1)
    await assistant.close()
  })
})
