import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../src/server/start.js'

const dataDir = mkdtempSync(join(tmpdir(), 'countersign-sandbox-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('sandbox storage', () => {
  it('restarting the sandbox keeps its lists, tasks and tokens', async () => {
    const first = await startSandbox({ port: 0, dataDir })
    const { body: tokens } = await call(first.url, 'POST', '/_sandbox/tokens', undefined, {
      user: 'ruth',
      scopes: ['tasks'],
    })
    const token = tokens.access_token as string
    const list = (await call(first.url, 'POST', '/tasks/v1/lists', token, { title: 'Kept' })).body
    const task = (
      await call(first.url, 'POST', `/tasks/v1/lists/${list.id}/tasks`, token, {
        title: 'Still here',
      })
    ).body
    await first.close()

    const second = await startSandbox({ port: 0, dataDir })
    try {
      const read = await call(
        second.url,
        'GET',
        `/tasks/v1/lists/${list.id}/tasks/${task.id}`,
        token,
      )
      expect(read.status).toBe(200)
      expect(read.body.title).toBe('Still here')
      expect(read.body.etag).toBe(task.etag)
      const lists = await call(second.url, 'GET', '/tasks/v1/lists', token)
      expect(lists.body.items.map((l: { title: string }) => l.title)).toEqual(['My Tasks', 'Kept'])
    } finally {
      await second.close()
    }
  })

  it('restarting the sandbox keeps the sites, properties and accounts added to a user', async () => {
    const first = await startSandbox({ port: 0, dataDir })
    let added: { propertiesId: string }
    let token: string
    try {
      await call(first.url, 'POST', '/_sandbox/users/rhea/sites', undefined, {
        siteUrl: 'sc-domain:kept.example',
      })
      added = (
        await call(first.url, 'POST', '/_sandbox/users/rhea/properties', undefined, {
          displayName: 'Kept site',
          account: 'Kept account',
        })
      ).body
      token = (
        await call(first.url, 'POST', '/_sandbox/tokens', undefined, {
          user: 'rhea',
          scopes: ['webmasters.readonly', 'analytics.readonly'],
        })
      ).body.access_token
    } finally {
      await first.close()
    }

    const second = await startSandbox({ port: 0, dataDir })
    try {
      const user = (await call(second.url, 'GET', '/_sandbox/users/rhea')).body
      expect(user.sites[2]).toBe('sc-domain:kept.example')
      expect(user.properties[2]).toBe(added.propertiesId)
      const sites = (await call(second.url, 'GET', '/search/v1/sites', token)).body
      expect(sites.siteEntry.map((s: { siteUrl: string }) => s.siteUrl)).toContain(
        'sc-domain:kept.example',
      )
      const summaries = (await call(second.url, 'GET', '/analytics/v1/accountSummaries', token))
        .body
      expect(summaries.accountSummaries[2]).toMatchObject({
        displayName: 'Kept account',
        propertySummaries: [
          { property: `properties/${added.propertiesId}`, displayName: 'Kept site' },
        ],
      })
      const next = await call(second.url, 'POST', '/_sandbox/users/rhea/properties', undefined, {
        displayName: 'After the restart',
      })
      expect(next.body.propertiesId).not.toBe(added.propertiesId)
    } finally {
      await second.close()
    }
  })
})
