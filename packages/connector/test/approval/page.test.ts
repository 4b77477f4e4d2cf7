import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { approvalKey, newApprovalId } from '../../src/approval/digest.js'
import { connectorForSuite, csrfOf } from '../support/connector.js'
import { expectOnlyOwnScript } from '../support/page-scripts.js'
import { dumpStore } from '../support/store-dump.js'
import { approvalFlow, escaped } from './flow.js'

/**
 * The approval page through the real connector and sandbox, over HTTP: the grant's person signs
 * in through the provider from the link, sees the change in words, and approves or declines it;
 * the retried call then goes through once, or is refused. Nobody else decides it, no other site
 * posts to it, no frame shows it, and nothing of the call is kept in the clear.
 */

const suite = connectorForSuite()
const flow = approvalFlow(suite)

const hostile = {
  summary: 'Delete task "<script>alert(1)</script>" from list "Groceries & co"?',
  details: [
    { label: 'Task', value: '"<script>alert(1)</script>"' },
    { label: 'List <b>', value: '"Groceries & co"' },
    { label: 'Notes', value: '<img src=x onerror=alert(2)>' },
  ],
  ifMatch: '"etag-7"',
}

/**
 * An HTML page that cannot be framed, is never cached and runs no script but the pages' own file
 * (the one that turns notifications on): nothing inline, so nothing injected runs.
 */
function expectProtectedPage(
  what: string,
  page: { status: number; headers: Headers; text: string },
  status: number,
) {
  expect(page.status, what).toBe(status)
  expect(page.headers.get('content-type'), what).toMatch(/^text\/html/)
  expect(page.headers.get('x-frame-options'), what).toBe('DENY')
  expect(page.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'")
  expect(page.headers.get('cache-control'), what).toBe('no-store')
  expect(page.headers.get('content-security-policy'), what).toContain("script-src 'self';")
  expectOnlyOwnScript(what, page.text)
}

describe('the approval page', () => {
  it('signed out, offers the sign-in through the provider and shows nothing of the change; signed in, shows it all, escaped', async () => {
    const { person, grantId } = await flow.connected('page-alice', 'Robo <i>Assistant</i>')
    const { url } = await flow.approvals.request(flow.deleteCall(grantId, { description: hostile }))

    const signedOut = await flow.open(person, url)
    expectProtectedPage('signed out', signedOut, 200)
    expect(signedOut.text).toContain('Sign in with')
    expect(signedOut.text).not.toContain('Groceries')
    expect(signedOut.text).not.toContain('Approve')

    const end = await flow.signInFrom(person, url)
    expect(end.url, 'back to the approval page').toBe(url)
    expectProtectedPage(
      'signed in',
      { ...end, headers: (await person.fetch('GET', url)).headers },
      200,
    )
    const page = end.text
    expect(page).toContain(escaped(hostile.summary))
    for (const { label, value } of hostile.details) {
      expect(page).toContain(`<dt>${escaped(label)}</dt>`)
      expect(page).toContain(`<dd>${escaped(value)}</dd>`)
    }
    expect(page).toContain(escaped('Robo <i>Assistant</i>'))
    expect(page).not.toContain('<i>Assistant</i>')
    expect(page).not.toContain('<img')
    expect(page).toContain('<strong>Tasks</strong>')
    expect(page).toMatch(
      /expires at\s*<time datetime="[^"]+Z">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/,
    )
    expect(page).toContain('Signed in as <strong>page-alice</strong>')
    expect(page).toContain(`<form method="post" action="/approvals/${url.split('/').pop()}">`)
    expect(page).toContain('<button name="Approve" value="Approve">Approve</button>')
    expect(page).toContain('<button name="Decline" value="Decline">Decline</button>')
    expect(csrfOf(page)).toBeTruthy()
  })

  it('an edit says what it replaces; only a deletion is shown in the colour of danger', async () => {
    const { person, grantId } = await flow.connected('page-editor')
    const edit = await flow.approvals.request({
      grantId,
      tool: 'update_task',
      args: { tasklist: 'list-1', task: 'task-1', title: 'Buy oat milk' },
      mode: 'auth-token',
      description: {
        summary: 'Change task "Buy milk" in list "Groceries"?',
        details: [{ label: 'Title', value: '"Buy oat milk"', before: '"Buy milk"' }],
      },
    })
    const end = await flow.signInFrom(person, edit.url)
    expect(end.text).toContain('This replaces what is there now')
    expect(end.text).not.toContain('cannot be undone')
    expect(end.text).not.toContain('card destructive')
    const deletion = await flow.approvals.request(flow.deleteCall(grantId))
    const page = await flow.open(person, deletion.url)
    expect(page.text).toMatch(
      /<section class="card destructive">[\s\S]*A deletion cannot be undone/,
    )
  })

  it('Approve: the person is told to go back to the assistant; the same call then goes through once, with the etag they saw', async () => {
    const { person, grantId } = await flow.connected('approver')
    const call = flow.deleteCall(grantId)
    const { id, url } = await flow.approvals.request(call)
    await flow.signInFrom(person, url)
    expect(await flow.approvals.consume(call)).toEqual({ ok: false, reason: 'pending' })

    const approved = await flow.decide(person, url, 'Approve')
    expectProtectedPage('approved', approved, 200)
    expect(approved.text).toContain('Approved: go back to your assistant and ask it to try again.')

    // The retried call: the same values, keys in another order.
    const retried = { ...call, args: { task: 'task-1', tasklist: 'list-1' } }
    expect(await flow.approvals.consume(retried)).toEqual({
      ok: true,
      ifMatch: '"etag-1"',
      approvalId: approvalKey(id),
    })
    expect(await flow.approvals.consume(retried)).toEqual({ ok: false, reason: 'used' })
    const after = await flow.open(person, url)
    expect(after.status).toBe(200)
    expect(after.text).toContain('Approved: your assistant has made the change.')
    expect(after.text).not.toContain('<button')

    // A decision is final: a Decline posted now (say, from a page left open) changes nothing.
    const again = await flow.post(person, url, {
      csrf: flow.formTokenOf(person, id),
      Decline: 'Decline',
    })
    expectProtectedPage('decided again', again, 409)
    expect(again.text).toContain('already decided')
    expect(await flow.statusOf(id)).toBe('approved')
    const audit = await suite.store.db
      .selectFrom('audit_events')
      .select(['decision', 'tool', 'upstream_status'])
      .where('grant_id', '=', grantId)
      .orderBy('at')
      .execute()
    expect(audit).toEqual([
      { decision: 'approved', tool: 'delete_task', upstream_status: null },
      { decision: 'replayed', tool: 'delete_task', upstream_status: null },
    ])
  })

  it('a call with other arguments, or from another grant of the same person, does not match the approval', async () => {
    const { person, grantId } = await flow.connected('two-clients')
    const other = await flow.connected('two-clients', 'Another Assistant', person)
    expect(other.grantId).not.toBe(grantId)
    const call = flow.deleteCall(grantId)
    const { url } = await flow.approvals.request(call)
    await flow.signInFrom(person, url)
    expect((await flow.decide(person, url, 'Approve')).status).toBe(200)

    expect(await flow.approvals.consume({ ...call, grantId: other.grantId })).toEqual({
      ok: false,
      reason: 'none',
    })
    expect(
      await flow.approvals.consume({ ...call, args: { tasklist: 'list-1', task: 'task-2' } }),
    ).toEqual({ ok: false, reason: 'none' })
    expect((await flow.approvals.consume(call)).ok).toBe(true)
  })

  it('Decline: nothing was changed, and the call is refused as declined', async () => {
    const { person, grantId } = await flow.connected('decliner')
    const call = flow.deleteCall(grantId)
    const { id, url } = await flow.approvals.request(call)
    await flow.signInFrom(person, url)
    const declined = await flow.decide(person, url, 'Decline')
    expectProtectedPage('declined', declined, 200)
    expect(declined.text).toContain('Declined: nothing was changed.')
    expect(await flow.approvals.consume(call)).toEqual({ ok: false, reason: 'declined' })
    expect(await flow.statusOf(id)).toBe('declined')
  })

  it('another person signed in gets a 403 page, and cannot decide it even with a form token of their own', async () => {
    const { grantId } = await flow.connected('owner')
    const { id, url } = await flow.approvals.request(flow.deleteCall(grantId))
    const mallory = suite.person('mallory')
    const end = await flow.signInFrom(mallory, url)
    expect(end.url).toBe(url)
    expectProtectedPage(
      'not theirs',
      { ...end, headers: (await mallory.fetch('GET', url)).headers },
      403,
    )
    expect(end.text).toContain('This change belongs to another account')
    expect(end.text).not.toContain('Buy milk')
    expect(end.text).not.toContain('<button')

    for (const button of ['Approve', 'Decline']) {
      const answer = await flow.post(mallory, url, {
        csrf: flow.formTokenOf(mallory, id),
        [button]: button,
      })
      expectProtectedPage(`${button} by another person`, answer, 403)
      expect(answer.text).toContain('This change belongs to another account')
    }
    expect(await flow.statusOf(id)).toBe('pending')
  })

  it("refuses a decision without the CSRF token, with a wrong one or another's, from another site, or without one button: 400, nothing decided", async () => {
    const { person, grantId } = await flow.connected('csrf-owner')
    const { id, url } = await flow.approvals.request(flow.deleteCall(grantId))
    const other = await flow.approvals.request(
      flow.deleteCall(grantId, { args: { tasklist: 'list-1', task: 'task-2' } }),
    )
    await flow.signInFrom(person, url)
    const csrf = csrfOf((await flow.open(person, url)).text)
    const othersApproval = csrfOf((await flow.open(person, other.url)).text)
    // The same person in another browser: another session.
    const secondBrowser = suite.person('csrf-owner')
    await flow.signInFrom(secondBrowser, url)
    const othersSession = csrfOf((await flow.open(secondBrowser, url)).text)
    expect(new Set([csrf, othersApproval, othersSession]).size).toBe(3)

    const attempts: [Record<string, string>, Record<string, string>][] = [
      [{ Approve: 'Approve' }, {}],
      [{ Approve: 'Approve', csrf: '' }, {}],
      [{ Approve: 'Approve', csrf: 'forged' }, {}],
      [{ Approve: 'Approve', csrf: `${csrf}x` }, {}],
      [{ Approve: 'Approve', csrf: othersApproval }, {}],
      [{ Approve: 'Approve', csrf: othersSession }, {}],
      [{ Approve: 'Approve', csrf }, { 'sec-fetch-site': 'cross-site' }],
      [{ Approve: 'Approve', csrf }, { 'sec-fetch-site': 'same-site' }],
      [{ Approve: 'Approve', csrf }, { origin: 'https://evil.example' }],
      [{ csrf }, {}],
      [{ Approve: 'Approve', Decline: 'Decline', csrf }, {}],
    ]
    for (const [form, headers] of attempts) {
      const answer = await flow.post(person, url, form, headers)
      expectProtectedPage(JSON.stringify([form, headers]), answer, 400)
      expect(answer.location).toBeNull()
    }
    const cross = await flow.post(
      person,
      url,
      { Approve: 'Approve', csrf },
      { origin: 'https://evil.example' },
    )
    expect(cross.text).toContain('another site')
    const json = await person.fetch('POST', url, undefined, {
      'content-type': 'application/json',
    })
    expect(json.status).toBe(400)
    expect(await flow.statusOf(id)).toBe('pending')
    expect(await flow.statusOf(other.id)).toBe('pending')

    // Its own form, from the page itself, still works.
    const answer = await flow.post(
      person,
      url,
      { Approve: 'Approve', csrf },
      {
        'sec-fetch-site': 'same-origin',
        origin: suite.url,
      },
    )
    expect(answer.status).toBe(200)
    expect(await flow.statusOf(id)).toBe('approved')
  })

  it("refuses the page's Sign in posted without its token or from another site", async () => {
    const { grantId } = await flow.connected('sign-in-csrf')
    const { url } = await flow.approvals.request(flow.deleteCall(grantId))
    const person = suite.person('sign-in-csrf')
    const csrf = csrfOf((await flow.open(person, url)).text)
    const before = await suite.store.db.selectFrom('upstream_authorizations').selectAll().execute()
    for (const [form, headers] of <[Record<string, string>, Record<string, string>][]>[
      [{}, {}],
      [{ csrf: 'forged' }, {}],
      [{ csrf }, { 'sec-fetch-site': 'cross-site' }],
      [{ csrf }, { origin: 'https://evil.example' }],
    ]) {
      const answer = await flow.post(person, `${url}/sign-in`, form, headers)
      expectProtectedPage(JSON.stringify([form, headers]), answer, 400)
      expect(answer.location).toBeNull()
    }
    expect(
      await suite.store.db.selectFrom('upstream_authorizations').selectAll().execute(),
    ).toEqual(before)
    const allowed = await flow.post(person, `${url}/sign-in`, { csrf })
    expect(allowed.status).toBe(303)
    expect(allowed.location).toContain(suite.providerPage)
  })

  it('an unknown link is 404; an expired one is 410, cannot be decided, and what it held is erased', async () => {
    const { person, grantId } = await flow.connected('expiring')
    const call = flow.deleteCall(grantId)
    const { id, url } = await flow.approvals.request(call)
    await flow.signInFrom(person, url)
    const csrf = csrfOf((await flow.open(person, url)).text)

    expectProtectedPage(
      'unknown',
      await flow.open(person, `${suite.url}/approvals/${newApprovalId()}`),
      404,
    )
    expectProtectedPage(
      'malformed',
      await flow.open(person, `${suite.url}/approvals/..%2Fconnections`),
      404,
    )
    const unknown = newApprovalId()
    const decidedUnknown = await flow.post(person, `${suite.url}/approvals/${unknown}`, {
      csrf: flow.formTokenOf(person, unknown),
      Approve: 'Approve',
    })
    expectProtectedPage('unknown, decided', decidedUnknown, 404)

    // Ten minutes pass.
    await suite.store.db
      .updateTable('approvals')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', approvalKey(id))
      .execute()
    const expired = await flow.open(person, url)
    expectProtectedPage('expired', expired, 410)
    expect(expired.text).toContain('expired')
    expect(expired.text).not.toContain('Buy milk')
    expectProtectedPage('expired, signed out', await flow.open(suite.person('nobody'), url), 410)
    const late = await flow.post(person, url, { csrf, Approve: 'Approve' })
    expectProtectedPage('decided late', late, 410)
    expect(await flow.approvals.consume(call)).toEqual({ ok: false, reason: 'expired' })
    expect(
      await suite.store.db
        .selectFrom('approvals')
        .select(['status', 'sealed_id', 'sealed_call', 'sealed_if_match'])
        .where('id', '=', approvalKey(id))
        .executeTakeFirst(),
    ).toEqual({ status: 'expired', sealed_id: null, sealed_call: null, sealed_if_match: null })
  })

  it('at rest: after a request and a decision, no argument, summary or detail in the clear, and the id only as its digest', async () => {
    const { person, grantId } = await flow.connected('at-rest-approval')
    const canary = `canary-${randomBytes(8).toString('hex')}`
    const call = flow.deleteCall(grantId, {
      args: { tasklist: `${canary}-list`, task: `${canary}-task` },
      description: {
        summary: `Delete task "${canary}-title"?`,
        details: [{ label: 'Task', value: `"${canary}-title"` }],
        ifMatch: `${canary}-etag`,
      },
    })
    const { id, url } = await flow.approvals.request(call)
    const dumps = [await dumpStore(suite.store)]
    await flow.signInFrom(person, url)
    await flow.decide(person, url, 'Approve')
    dumps.push(await dumpStore(suite.store))
    expect((await flow.approvals.consume(call)).ok).toBe(true)
    dumps.push(await dumpStore(suite.store))
    for (const dump of dumps) {
      expect(dump).toContain(approvalKey(id))
      expect(dump).not.toContain(canary)
      expect(dump).not.toContain(id)
    }
  })

  it('ending the grant (the assistant revokes its token) erases its approvals', async () => {
    const { client, tokens, grantId } = await flow.connected('revoker')
    const { id, url } = await flow.approvals.request(flow.deleteCall(grantId))
    expect((await suite.revoke(client, tokens.refresh_token)).status).toBe(200)
    expect(await flow.statusOf(id)).toBeUndefined()
    expect((await flow.open(suite.person('revoker'), url)).status).toBe(404)
  })
})
