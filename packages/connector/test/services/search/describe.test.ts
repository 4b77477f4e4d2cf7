import { describe, expect, it } from 'vitest'
import { SEARCH_TOOLS } from '../../../src/services/search/index.js'
import { moment } from '../../../src/services/wording.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { callTool, providerReader } from '../tool-calls.js'

/** submit_sitemap's describe(), reading the site and its sitemaps from the real sandbox. */

const sandbox = sandboxForSuite()
const submit = SEARCH_TOOLS.find((t) => t.name === 'submit_sitemap')!
let users = 0

async function person() {
  const name = `describer${++users}`
  const token = await sandbox.token(name, ['webmasters'])
  const reader = providerReader(sandbox, token, 'search')
  const ask = (args: Record<string, unknown>) =>
    submit.approval!.describe(submit.input.parse(args), reader)
  return {
    name,
    token,
    reader,
    ask,
    prefix: `https://www.${name}.example/`,
    domain: `sc-domain:${name}.example`,
  }
}

describe('describe(submit_sitemap): the sitemap and the site in the person’s words', () => {
  it('a new sitemap on a URL-prefix site', async () => {
    const { ask, reader, prefix } = await person()
    const feedpath = `${prefix}sitemap-2026.xml`
    const d = await ask({ siteUrl: prefix, feedpath })
    expect(d).toEqual({
      summary: `Submit sitemap "${feedpath}" for site "${prefix}"?`,
      details: [
        { label: 'Sitemap', value: `"${feedpath}"` },
        { label: 'Site', value: `"${prefix}" (addresses starting with ${prefix})` },
        { label: 'Submitted before', value: 'no: this is its first submission' },
        {
          label: 'What happens',
          value:
            'Google fetches the sitemap and crawls the pages it lists; nothing on the site changes',
        },
      ],
    })
    expect(d.ifMatch).toBeUndefined()
    // It read the site and its sitemaps, nothing else, and changed nothing.
    expect(reader.calls).toEqual([
      `/sites/${encodeURIComponent(prefix)}`,
      `/sites/${encodeURIComponent(prefix)}/sitemaps`,
    ])
    // What the approval costs: the reads the tool declares, each once.
    expect([...reader.operations].sort()).toEqual(
      submit.approval!.reads.map((read) => read.operation).sort(),
    )
  })

  it('a sitemap submitted before: says when, in the person’s time words', async () => {
    const { ask, token, prefix } = await person()
    const feedpath = `${prefix}sitemap.xml`
    const listed = await callTool(
      sandbox,
      token,
      SEARCH_TOOLS.find((t) => t.name === 'list_sitemaps')!,
      { siteUrl: prefix },
    )
    const seeded = listed.body.sitemap.find((s: { path: string }) => s.path === feedpath)
    const d = await ask({ siteUrl: prefix, feedpath })
    expect(d.details[2]).toEqual({
      label: 'Submitted before',
      value: `yes, last on ${moment(seeded.lastSubmitted)}: Google is asked to read it again`,
    })
    expect(d.details[2]!.value).toMatch(/last on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/)
  })

  it('a domain property: the sitemap may be on any of its hosts, and the site says what it covers', async () => {
    const { ask, domain, name } = await person()
    const feedpath = `https://blog.${name}.example/feed.xml`
    const d = await ask({ siteUrl: domain, feedpath })
    expect(d.summary).toBe(`Submit sitemap "${feedpath}" for site "${domain}"?`)
    expect(d.details[1]).toEqual({
      label: 'Site',
      value: `"${domain}" (every address on ${name}.example and its subdomains)`,
    })
    expect(d.details[2]!.value).toMatch(/^yes, last on /)
  })

  it('a site that is not the person’s: the read fails, so nobody is asked', async () => {
    const { ask } = await person()
    await expect(
      ask({
        siteUrl: 'https://www.someone-else.example/',
        feedpath: 'https://www.someone-else.example/s.xml',
      }),
    ).rejects.toThrow(/403/)
  })

  it('then the submission itself: 200 without a body, and the answer the tool gives stands for it', async () => {
    const { ask, token, prefix } = await person()
    const args = { siteUrl: prefix, feedpath: `${prefix}approved.xml` }
    await ask(args)
    const res = await callTool(sandbox, token, submit, args)
    expect(res.status).toBe(200)
    expect(submit.output.parse(submit.answerWithoutBody!(submit.input.parse(args)))).toEqual({
      ...args,
      submitted: true,
    })
    expect((await ask(args)).details[2]!.value).toMatch(/^yes, last on /)
  })
})
