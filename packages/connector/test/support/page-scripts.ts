import { expect } from 'vitest'
import { PUSH_SCRIPT_PATH } from '../../src/pages/push-scripts.js'

/**
 * The only script a page of the connector may hold: the pages' own file, which turns
 * notifications on (src/pages/push-scripts.ts). Nothing inline, so nothing injected runs.
 */
export function expectOnlyOwnScript(what: string, html: string): void {
  for (const tag of html.match(/<script[^>]*>/gi) ?? [])
    expect(tag, what).toBe(`<script src="${PUSH_SCRIPT_PATH}" defer>`)
}
