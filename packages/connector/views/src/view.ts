import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps'
import type { CallToolResult } from '@modelcontextprotocol/server'
import { connectToHost } from './browser.js'
import { h, show } from './dom.js'
import { Formats } from './format.js'

/**
 * What every view shares: the connection to its host, what it has heard (the arguments, the
 * result, the host's context), and drawing again when any of it changes, with the keyboard's
 * focus kept where it was. A view draws a result; it never calls a tool.
 */

export interface Drawing {
  /** The call's arguments, once the host has sent them. */
  input: Record<string, unknown>
  /** The result's `structuredContent`. */
  content: unknown
  formats: Formats
  /** State of the view's own controls (series shown, chart or table), kept across draws. */
  controls: Record<string, unknown>
  redraw(): void
}

export interface ViewDefinition {
  name: string
  /** Shown until the result arrives. */
  waiting: string
  draw(drawing: Drawing): Node[]
}

export function startView(view: ViewDefinition): void {
  const root = h('main', { class: 'view' })
  document.body.append(root)
  let input: Record<string, unknown> = {}
  let result: CallToolResult | undefined
  let cancelled = false
  let context: McpUiHostContext = {}
  const controls: Record<string, unknown> = {}

  const redraw = () => {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.key
    show(root, ...content())
    if (focused) root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus()
  }
  const content = (): Node[] => {
    if (cancelled && !result) return [notice('The call was cancelled: there is nothing to draw.')]
    if (!result) return [notice(view.waiting)]
    if (result.isError) return [failure(textOf(result))]
    const currency = (result.structuredContent as { metadata?: { currencyCode?: string } })
      ?.metadata?.currencyCode
    try {
      return view.draw({
        input,
        content: result.structuredContent,
        formats: new Formats(context.locale, currency),
        controls,
        redraw,
      })
    } catch (error) {
      console.error(error)
      return [failure('This result could not be drawn. The assistant still has it in full.')]
    }
  }

  redraw()
  void connectToHost(view.name, {
    context(changed) {
      context = changed
      if (result) redraw()
    },
    input(args) {
      input = args
      if (result) redraw()
    },
    result(received) {
      result = received
      redraw()
    },
    cancelled() {
      cancelled = true
      redraw()
    },
  }).catch((error: unknown) => {
    console.error(error)
    show(root, failure('The view could not reach its host.'))
  })
}

const notice = (text: string) => h('p', { class: 'notice' }, text)

function failure(message: string): HTMLElement {
  return h(
    'div',
    { class: 'failure', role: 'alert' },
    h('p', { class: 'failure-title' }, 'Nothing to draw: the call failed'),
    h('p', {}, message),
  )
}

/** The text of an error result: what the model was told. */
function textOf(result: CallToolResult): string {
  const text = result.content
    ?.flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
  return text || 'The call failed.'
}

/** A view's heading: what it shows, and of what. */
export function heading(title: string, ...about: (string | undefined)[]): HTMLElement {
  const line = about.filter(Boolean).join(' · ')
  return h('header', {}, h('h1', {}, title), line && h('p', { class: 'about' }, line))
}

/** Notes under a view: data not final, more rows than shown. */
export function notes(...lines: (string | undefined | false)[]): HTMLElement | undefined {
  const shown = lines.filter((line): line is string => !!line)
  return shown.length ? h('ul', { class: 'notes' }, ...shown.map((l) => h('li', {}, l))) : undefined
}

/** Figures side by side, large: the totals, or what is happening now. */
export function figures(items: { label: string; value?: string }[], big = false): HTMLElement {
  return h(
    'dl',
    { class: big ? 'summary big' : 'summary' },
    ...items.map((item) => h('div', {}, h('dt', {}, item.label), h('dd', {}, item.value ?? '–'))),
  )
}
