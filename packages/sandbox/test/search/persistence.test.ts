import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/server/start.js'

const dataDir = mkdtempSync(join(tmpdir(), 'countersign-search-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('search API storage', () => {
  it('a submitted sitemap is still there after the sandbox restarts', async () => {
    const site = 'https://www.keeper.example/'
    const feed = `${site}kept.xml`
    const path = `/search/v1/sites/${encodeURIComponent(site)}/sitemaps`
    const first = await startSandbox({ port: 0, dataDir })
    let token: string
    try {
      const tokens = await fetch(`${first.url}/_sandbox/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'keeper', scopes: ['webmasters'] }),
      })
      token = ((await tokens.json()) as { access_token: string }).access_token
      const put = await fetch(`${first.url}${path}/${encodeURIComponent(feed)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(put.status).toBe(200)
    } finally {
      await first.close()
    }

    const second = await startSandbox({ port: 0, dataDir })
    try {
      const res = await fetch(`${second.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      const body = (await res.json()) as { sitemap: { path: string }[] }
      expect(body.sitemap.map((s) => s.path)).toContain(feed)
    } finally {
      await second.close()
    }
  })
})
