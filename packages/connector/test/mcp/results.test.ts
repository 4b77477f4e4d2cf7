import { describe, expect, it } from 'vitest'
import { success } from '../../src/mcp/results.js'

/**
 * A successful result carries the provider's page as `structuredContent` and the same JSON as
 * text. A large page is serialized once less when the provider's own compact text is the text.
 */

const page = { rows: [{ keys: ['oat milk', '2026-11-01'], clicks: 3, ctr: 0.25 }], note: 'a\nb' }

describe('a successful result', () => {
  it("takes the provider's compact text as it is", () => {
    const compact =
      '{"rows":[{"keys":["oat milk","2026-11-01"],"clicks":3,"ctr":0.25}],"note":"a\\nb"}'
    const result = success(page, compact)
    expect(result.content).toEqual([{ type: 'text', text: compact }])
    expect(result.structuredContent).toBe(page)
    expect(JSON.parse(compact)).toEqual(page)
  })

  it('serializes indented text anew, so the model never reads the indentation', () => {
    const indented = JSON.stringify(page, null, 2)
    expect(success(page, indented).content).toEqual([{ type: 'text', text: JSON.stringify(page) }])
  })

  it('serializes the content when the provider sent no text of it', () => {
    expect(success(page).content).toEqual([{ type: 'text', text: JSON.stringify(page) }])
  })
})
