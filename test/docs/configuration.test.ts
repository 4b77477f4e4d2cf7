import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configDocs, PAGES, pagePath } from '../../dev/config-doc.js'
import {
  CONNECTOR_VARIABLES,
  SANDBOX_LOCATION_VARIABLES,
  UPSTREAM_VARIABLES,
} from '@countersign/connector/testing'
import { SANDBOX_VARIABLES } from '@countersign/sandbox/testing'

const ROOT = new URL('../../', import.meta.url)

describe('the configuration, declared once', () => {
  it('is what `npm run docs:config` writes in the docs', async () => {
    for (const [page, text] of Object.entries(await configDocs()))
      expect(
        await readFile(pagePath(page), 'utf8'),
        `${page} is stale: run \`npm run docs:config\``,
      ).toBe(text)
  })

  it('is written only where `npm run docs:config` writes it: no table left unchecked', async () => {
    const pages = [
      'README.md',
      'CONTRIBUTING.md',
      ...(await readdir(new URL('docs/', ROOT))).map((f) => `docs/${f}`),
    ]
    const unchecked: string[] = []
    for (const page of pages.filter((p) => p.endsWith('.md'))) {
      const text = await readFile(pagePath(page), 'utf8')
      for (const [, name] of text.matchAll(/<!-- BEGIN config:([\w-]+)/g))
        if (!PAGES[page]?.[name!]) unchecked.push(`${page}: ${name}`)
    }
    expect(unchecked, 'declare each table in dev/config-doc.ts, PAGES').toEqual([])
  })

  it('the connector finds the sandbox where the sandbox is, unless told otherwise', () => {
    for (const [name, variable] of Object.entries(SANDBOX_LOCATION_VARIABLES)) {
      const sandbox = SANDBOX_VARIABLES[name as keyof typeof SANDBOX_VARIABLES]
      expect(sandbox?.fallback, name).toBe(variable.fallback)
    }
    expect(SANDBOX_VARIABLES.DATA_DIR.fallback).toBe(CONNECTOR_VARIABLES.DATA_DIR.fallback)
  })

  it('says, for each variable with no default, what leaving it unset does', () => {
    const all = [
      ...Object.values(CONNECTOR_VARIABLES),
      ...Object.values(UPSTREAM_VARIABLES).filter((variable) => !variable.required),
      ...Object.values(SANDBOX_LOCATION_VARIABLES),
      ...Object.values(SANDBOX_VARIABLES),
    ]
    for (const variable of all)
      if (variable.fallback === undefined) expect(variable.unset, variable.name).toBeTruthy()
    for (const [name, variable] of Object.entries(SANDBOX_VARIABLES))
      expect(variable.name).toBe(name)
  })

  it('is read through the declarations alone: no source reads process.env by name', async () => {
    const readers: string[] = []
    for (const pkg of ['connector', 'sandbox']) {
      const src = new URL(`packages/${pkg}/src/`, ROOT)
      for (const file of await readdir(src, { recursive: true })) {
        if (!file.endsWith('.ts')) continue
        const text = await readFile(join(src.pathname, file), 'utf8')
        if (/process\.env(\.|\[)/.test(text)) readers.push(`packages/${pkg}/src/${file}`)
      }
    }
    expect(readers).toEqual([])
  })
})
