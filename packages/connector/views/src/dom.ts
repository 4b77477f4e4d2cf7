/**
 * Elements built from text: every value from a result reaches the page as a text node, never
 * as markup, so a query or a page path cannot inject anything.
 */

type Child = Node | string | number | null | undefined | false

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : value)
  }
  append(element, children)
  return element
}

/** Replaces what `parent` holds. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

function append(parent: Element, children: readonly Child[]): void {
  for (const child of children)
    if (child !== null && child !== undefined && child !== false)
      parent.append(typeof child === 'number' ? String(child) : child)
}
