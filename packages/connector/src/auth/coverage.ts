import { z } from 'zod'
import { coverageBinding } from '../vault/bindings.js'
import type { Vault } from '../vault/vault.js'

/**
 * What a grant covers of the person's resources at the provider (their task lists, sites or
 * properties: services/catalog.ts, GrantedResource): every one, those added later included, or
 * only the ones the person chose. Nothing else of them is kept: no names, no data.
 *
 * Chosen ids are stored sealed by the vault and bound to their grant, so that a site list (a
 * consultant's clients, say) is not readable at rest and a copy to another grant does not open
 * (docs/threat-model.md). A grant whose coverage does not open covers nothing: it fails closed.
 */
export type Coverage =
  | { readonly all: true }
  | {
      readonly all: false
      readonly ids: ReadonlySet<string>
      /** The task list "@default" names, learnt when the lists were chosen. */
      readonly defaultList?: string
    }

export const EVERY_ONE: Coverage = { all: true }

/** Only `ids`; for task lists, `defaultList` says which one "@default" names. */
export const onlyThese = (ids: Iterable<string>, defaultList?: string): Coverage => ({
  all: false,
  ids: new Set(ids),
  ...(defaultList !== undefined && { defaultList }),
})

/** The alias of the person's default task list, which a grant resolves before holding it. */
export const DEFAULT_LIST = '@default'

/** Whether `coverage` covers the resource `id` (a task list's id, a siteUrl, properties/N). */
export function covers(coverage: Coverage, id: string): boolean {
  if (coverage.all) return true
  if (id === DEFAULT_LIST)
    return coverage.defaultList !== undefined && coverage.ids.has(coverage.defaultList)
  return coverage.ids.has(id)
}

/** `coverage` with `id` added: a list the assistant made joins a grant of chosen lists. */
export const withOneMore = (coverage: Coverage, id: string): Coverage =>
  coverage.all ? coverage : onlyThese([...coverage.ids, id], coverage.defaultList)

/** How a grant's coverage is stored: its two columns of grant_links. */
export interface StoredCoverage {
  /** null: every one; else the chosen ids, sealed. */
  coverage: string | null
  /** The vault key that sealed it, for rotation; null with `coverage`. */
  coverage_key_id: string | null
}

const sealedIds = z.object({
  ids: z.array(z.string()),
  defaultList: z.string().optional(),
})

/**
 * Opened coverage kept in memory, by the exact sealed value: a change seals anew (a fresh IV), so
 * a narrowed grant is never answered from here. Bounded by the ids it holds.
 */
const OPENED_IDS_KEPT = 100_000

/** The sealing of coverage by the vault, bound to the grant. */
export class CoverageSeal {
  /** Sealed value (with its grant) -> opened coverage, oldest first. */
  readonly #opened = new Map<string, Coverage>()
  #openedIds = 0

  constructor(private readonly vault: Pick<Vault, 'seal' | 'open' | 'keyId'>) {}

  seal(grantId: string, coverage: Coverage): StoredCoverage {
    if (coverage.all) return { coverage: null, coverage_key_id: null }
    const plain = JSON.stringify({
      ids: [...coverage.ids].sort(),
      ...(coverage.defaultList !== undefined && { defaultList: coverage.defaultList }),
    })
    return {
      coverage: this.vault.seal(plain, coverageBinding(grantId)),
      coverage_key_id: this.vault.keyId,
    }
  }

  /**
   * The coverage stored for `grantId`; nothing at all when it does not open (fail closed). Every
   * MCP request opens its grant's: a grant of many ids is opened once, then found by its value
   * (2,000 ids take some 0.36 ms to open, 50 some 15 µs).
   */
  open(grantId: string, stored: string | null): Coverage {
    if (stored === null) return EVERY_ONE
    const key = `${grantId}\n${stored}`
    const known = this.#opened.get(key)
    if (known) return known
    let coverage: Coverage
    try {
      const { ids, defaultList } = sealedIds.parse(
        JSON.parse(this.vault.open(stored, coverageBinding(grantId))),
      )
      coverage = onlyThese(ids, defaultList)
    } catch {
      return onlyThese([])
    }
    this.#keep(key, coverage)
    return coverage
  }

  #keep(key: string, coverage: Coverage) {
    const size = coverage.all ? 0 : coverage.ids.size
    if (size > OPENED_IDS_KEPT) return
    this.#opened.set(key, coverage)
    this.#openedIds += size
    for (const [oldest, kept] of this.#opened) {
      if (this.#openedIds <= OPENED_IDS_KEPT) break
      this.#opened.delete(oldest)
      this.#openedIds -= kept.all ? 0 : kept.ids.size
    }
  }
}
