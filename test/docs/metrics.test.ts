import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { pagePath } from '../../dev/generated-docs.js'
import { metricsDocs } from '../../dev/metrics-doc.js'
import { METRICS, Metrics } from '@countersign/connector/testing'

describe('the metrics, declared once', () => {
  it('is what `npm run docs:metrics` writes in the docs', async () => {
    for (const [page, text] of Object.entries(await metricsDocs()))
      expect(
        await readFile(pagePath(page), 'utf8'),
        `${page} is stale: run \`npm run docs:metrics\``,
      ).toBe(text)
  })

  it('are the metrics served, each with its declared type and help', async () => {
    const { text } = await new Metrics({ toolSteps: true }).scrape()
    for (const declared of Object.values(METRICS)) {
      // Node 24's clock only: the series of the main thread's part exists where it does.
      if (declared === METRICS.stepMainThread && !('threadCpuUsage' in process)) continue
      expect(text, declared.name).toContain(`# HELP ${declared.name} ${declared.help}\n`)
      expect(text, declared.name).toContain(`# TYPE ${declared.name} ${declared.type}\n`)
    }
  })
})
