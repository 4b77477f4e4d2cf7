import { h } from './dom.js'

/**
 * The metrics of a chart as toggles, each with its colour and, where the result gives one, its
 * total: buttons, so a keyboard reaches them, each saying whether its line is drawn.
 */
export interface Tile {
  label: string
  value?: string
  color: number
  on: boolean
}

export function tiles(items: Tile[], toggle: (index: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'tiles', role: 'group', 'aria-label': 'Metrics drawn' },
    ...items.map((item, i) => {
      const button = h(
        'button',
        {
          type: 'button',
          class: `tile c${item.color}`,
          'aria-pressed': String(item.on),
          'data-key': `tile-${i}`,
        },
        h('span', { class: 'tile-name' }, item.label),
        item.value !== undefined && h('span', { class: 'tile-value' }, item.value),
      )
      button.addEventListener('click', () => toggle(i))
      return button
    }),
  )
}

/** A choice of one among a few (a metric to break down, chart or table), as pressed buttons. */
export function choice(
  label: string,
  options: string[],
  chosen: number,
  choose: (index: number) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'choice', role: 'group', 'aria-label': label },
    ...options.map((option, i) => {
      const button = h(
        'button',
        { type: 'button', 'aria-pressed': String(i === chosen), 'data-key': `${label}-${i}` },
        option,
      )
      button.addEventListener('click', () => choose(i))
      return button
    }),
  )
}
