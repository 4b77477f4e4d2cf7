import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { renderToolsDoc, TOOLS_DOC, toolsDoc } from '../../src/services/tools-doc.js'
import { SERVICE_TOOLS } from '../../src/services/tools.js'

describe('docs/tools.md', () => {
  it('is what `npm run docs:tools` writes from the definitions', async () => {
    const checkedIn = await readFile(TOOLS_DOC, 'utf8')
    expect(checkedIn, 'docs/tools.md is stale: run `npm run docs:tools`').toBe(await toolsDoc())
  })

  it('has every tool, in the tool table’s order, with its method and path, scope and approval', () => {
    const doc = renderToolsDoc()
    const tools = Object.values(SERVICE_TOOLS).flat()
    expect([...doc.matchAll(/^### (\w+): /gm)].map((m) => m[1])).toEqual(tools.map((t) => t.name))
    expect(doc).toContain(
      '| `delete_task` | Delete a task | `DELETE /lists/{tasklist}/tasks/{task}` | `tasks` | each time, `per-call` |',
    )
    expect(doc).toContain(
      '| `get_site` | Read a site | `GET /sites/{siteUrl}` | `webmasters.readonly` | none (read) |',
    )
  })

  it('gives each input where it goes, its type, whether it is required, and its limits', () => {
    const doc = renderToolsDoc()
    for (const row of [
      '| `tasklist` | path | string | required | 1 to 256 characters |',
      '| `maxResults` | query | integer | optional | 1 to 100 |',
      '| `notes` | body | string or null | optional | at most 8,192 characters |',
      '| `deleted` | body | boolean | optional | only `false` |',
      '| `startDate` | body | string (date) | required |  |',
      '| `type` | body | string | optional | one of `web`, `image`, `video`, `news`, `discover`, `googleNews` |',
      '| `requests` | body | array of object | required | 1 to 5 items |',
      '| `offset` | body | integer | optional | at least 0 |',
    ])
      expect(doc).toContain(row)
    expect(doc).toContain('Include deleted tasks (default false).')
  })
})
