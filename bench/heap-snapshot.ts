import { readFileSync } from 'node:fs'

/**
 * A V8 heap snapshot (the `.heapsnapshot` JSON that `--heapsnapshot-signal` writes) summarized by
 * what holds each byte: every object is charged to the module that holds it, the one whose code,
 * closure or module scope it is reached through on every path from the roots.
 *
 * That is the dominator tree, as DevTools builds it for "Retained size": an object's immediate
 * dominator is the last object every path from the roots to it passes through. A script is its
 * own module's; a function's code and closure are its script's; a scope (context) is the module
 * of a closure that runs in it. Anything else belongs to its immediate dominator's module, so a
 * cache in a module's scope is that module's however many objects it holds. What no one module
 * holds is `(no single holder)`: V8's and Node's own state (the module loader, interned strings,
 * builtins), and whatever two modules both reach.
 */

export interface HeapSummary {
  /** The bytes of every object reachable from the roots. */
  totalBytes: number
  /** Bytes by holder (bench/heap-snapshot.ts, `holderOf`), largest first. */
  byHolder: { holder: string; bytes: number }[]
}

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[]
      node_types: [string[]]
      edge_fields: string[]
      edge_types: [string[]]
    }
  }
  nodes: number[]
  edges: number[]
  strings: string[]
}

export const NO_SINGLE_HOLDER = '(no single holder)'

/**
 * What a module is part of: a package of node_modules by its name (`@scope/name` too), a folder
 * of the project's compiled packages as `connector/mcp` or `sandbox`, and Node's own as `node`.
 */
export function packageOf(moduleUrl: string): string {
  const path = moduleUrl.replace(/^file:\/\//, '')
  if (path.startsWith('node:') || !path.includes('/')) return 'node'
  const dependency = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)
  if (dependency) return dependency[1]!
  const own = /\/packages\/([^/]+)\/(?:dist|bin)\/(?:([^/]+)\/)?/.exec(path)
  if (own) return own[1] === 'connector' && own[2] ? `connector/${own[2]}` : own[1]!
  return path
}

export function summarizeHeapSnapshot(
  path: string,
  holderOf: (moduleUrl: string) => string = packageOf,
): HeapSummary {
  const graph = new HeapGraph(JSON.parse(readFileSync(path, 'utf8')) as Snapshot)
  const { order, idom } = graph.dominators()
  const holders: string[] = []
  const holderIds = new Map<string, number>()
  const idOf = (holder: string) => {
    let id = holderIds.get(holder)
    if (id === undefined) holderIds.set(holder, (id = holders.push(holder) - 1))
    return id
  }
  const runtime = idOf(NO_SINGLE_HOLDER)
  const owner = new Int32Array(graph.count).fill(-1)
  const scripts = graph.scriptsOf()
  // Top down the dominator tree: a node's dominator has its holder before the node is reached.
  for (const node of order) {
    const url = scripts.get(node)
    if (url !== undefined) owner[node] = idOf(holderOf(url))
    else if (node === graph.root) owner[node] = runtime
    else owner[node] = owner[idom[node]!]!
  }
  const bytes = new Float64Array(holders.length)
  let totalBytes = 0
  for (const node of order) {
    bytes[owner[node]!]! += graph.selfSize(node)
    totalBytes += graph.selfSize(node)
  }
  const byHolder = holders
    .map((holder, id) => ({ holder, bytes: bytes[id]! }))
    .sort((a, b) => b.bytes - a.bytes)
  return { totalBytes, byHolder }
}

/** The snapshot's flat arrays, read as a graph of node indexes 0..count-1. */
class HeapGraph {
  readonly count: number
  readonly root = 0
  readonly #nodes: number[]
  readonly #edges: number[]
  readonly #strings: string[]
  readonly #nodeFields: number
  readonly #edgeFields: number
  readonly #firstEdge: Uint32Array
  readonly #nodeTypes: string[]
  readonly #edgeTypes: string[]

  constructor(snapshot: Snapshot) {
    const { meta } = snapshot.snapshot
    this.#nodes = snapshot.nodes
    this.#edges = snapshot.edges
    this.#strings = snapshot.strings
    this.#nodeFields = meta.node_fields.length
    this.#edgeFields = meta.edge_fields.length
    this.#nodeTypes = meta.node_types[0]
    this.#edgeTypes = meta.edge_types[0]
    this.count = this.#nodes.length / this.#nodeFields
    this.#firstEdge = new Uint32Array(this.count + 1)
    for (let node = 0, edge = 0; node < this.count; node++) {
      this.#firstEdge[node] = edge
      edge += this.#nodes[node * this.#nodeFields + 4]! * this.#edgeFields
    }
    this.#firstEdge[this.count] = this.#edges.length
  }

  selfSize = (node: number) => this.#nodes[node * this.#nodeFields + 3]!
  type = (node: number) => this.#nodeTypes[this.#nodes[node * this.#nodeFields]!]!
  name = (node: number) => this.#strings[this.#nodes[node * this.#nodeFields + 1]!]!

  /** Calls `visit` with each edge of `node` that holds its target (weak edges do not). */
  forEachEdge(node: number, visit: (to: number, type: string, name: string | number) => void) {
    for (let edge = this.#firstEdge[node]!; edge < this.#firstEdge[node + 1]!;) {
      const type = this.#edgeTypes[this.#edges[edge]!]!
      const nameOrIndex = this.#edges[edge + 1]!
      const to = this.#edges[edge + 2]! / this.#nodeFields
      edge += this.#edgeFields
      if (type === 'weak' || type === 'shortcut') continue
      const named =
        type === 'element' || type === 'hidden' ? nameOrIndex : this.#strings[nameOrIndex]!
      visit(to, type, named)
    }
  }

  /** The edge of `node` called `name`'s target, if it has one. */
  edgeTo(node: number, name: string): number | undefined {
    let found: number | undefined
    this.forEachEdge(node, (to, _type, named) => {
      if (found === undefined && named === name) found = to
    })
    return found
  }

  /**
   * The module each node of a script's is charged to: the script (a `code` node with a `source`),
   * the functions compiled from it (through `script_or_debug_info`, or `script`), their closures
   * (`shared`),
   * the scopes those closures run in (`context`, and the scopes around it, `previous`), and an
   * ES module's record with the cells of its exports.
   */
  scriptsOf(): Map<number, string> {
    const url = new Map<number, string>()
    const scriptOfFunction = (shared: number): string | undefined => {
      // V8 12 (Node 20) names the edge `script_or_debug_info`, V8 13 (Node 24) `script`.
      const held = this.edgeTo(shared, 'script_or_debug_info') ?? this.edgeTo(shared, 'script')
      if (held === undefined) return undefined
      const script = this.edgeTo(held, 'source') === undefined ? this.edgeTo(held, 'script') : held
      return script === undefined ? undefined : url.get(script)
    }
    for (let node = 0; node < this.count; node++)
      if (this.type(node) === 'code' && this.edgeTo(node, 'source') !== undefined) {
        const name = this.edgeTo(node, 'name')
        const scriptUrl = name === undefined ? '' : this.name(name)
        if (scriptUrl) url.set(node, scriptUrl)
      }
    for (let node = 0; node < this.count; node++) {
      if (this.type(node) !== 'closure') continue
      const shared = this.edgeTo(node, 'shared')
      const script = shared === undefined ? undefined : scriptOfFunction(shared)
      if (script === undefined) continue
      url.set(node, script)
      if (!url.has(shared!)) url.set(shared!, script)
      for (let scope = this.edgeTo(node, 'context'); scope !== undefined && !url.has(scope);) {
        url.set(scope, script)
        scope = this.edgeTo(scope, 'previous')
      }
    }
    // An ES module's record, and the cells of what it exports: the loader holds every record, and
    // importers hold the cells, so no dominator would charge them (or what they hold) to the
    // module. A record's body runs as a generator, whose function is the module's.
    for (let node = 0; node < this.count; node++) {
      if (this.name(node) !== 'system / SourceTextModule') continue
      let script: string | undefined
      this.forEachEdge(node, (to) => {
        if (script !== undefined || this.type(to) !== 'object' || this.name(to) !== 'Generator')
          return
        const body = this.edgeTo(to, 'function')
        script = body === undefined ? undefined : url.get(body)
      })
      if (script === undefined) continue
      url.set(node, script)
      this.forEachEdge(node, (held) => {
        if (this.type(held) !== 'array') return
        this.forEachEdge(held, (cell) => {
          if (this.name(cell) === 'system / Cell' && !url.has(cell)) url.set(cell, script!)
        })
      })
    }
    return url
  }

  /**
   * The immediate dominator of each node reachable from the root, and those nodes in reverse
   * postorder (each after its dominator): Cooper, Harvey and Kennedy's iterative algorithm, "A
   * Simple, Fast Dominance Algorithm" (2001).
   */
  dominators(): { order: Uint32Array; idom: Int32Array } {
    const postorder = new Int32Array(this.count).fill(-1)
    const byPostorder: number[] = []
    // Depth first from the root, without recursion (the graph is millions of edges deep).
    const stack: number[] = [this.root]
    const visited = new Uint8Array(this.count)
    const nextEdge = new Uint32Array(this.count)
    visited[this.root] = 1
    nextEdge[this.root] = this.#firstEdge[this.root]!
    while (stack.length > 0) {
      const node = stack[stack.length - 1]!
      let descended = false
      while (nextEdge[node]! < this.#firstEdge[node + 1]!) {
        const edge = nextEdge[node]!
        nextEdge[node] = edge + this.#edgeFields
        const type = this.#edgeTypes[this.#edges[edge]!]!
        if (type === 'weak' || type === 'shortcut') continue
        const to = this.#edges[edge + 2]! / this.#nodeFields
        if (visited[to]) continue
        visited[to] = 1
        nextEdge[to] = this.#firstEdge[to]!
        stack.push(to)
        descended = true
        break
      }
      if (!descended) {
        stack.pop()
        postorder[node] = byPostorder.push(node) - 1
      }
    }
    // Each reachable node's holders (reverse edges), by postorder number.
    const reachable = byPostorder.length
    const holderCount = new Uint32Array(reachable + 1)
    for (const node of byPostorder)
      this.forEachEdge(node, (to) => {
        if (postorder[to]! >= 0) holderCount[postorder[to]! + 1]!++
      })
    for (let i = 0; i < reachable; i++) holderCount[i + 1]! += holderCount[i]!
    const holders = new Uint32Array(holderCount[reachable]!)
    const filled = holderCount.slice(0, reachable)
    for (const node of byPostorder)
      this.forEachEdge(node, (to) => {
        if (postorder[to]! >= 0) holders[filled[postorder[to]!]!++] = postorder[node]!
      })
    const rootNumber = postorder[this.root]!
    const dom = new Int32Array(reachable).fill(-1)
    dom[rootNumber] = rootNumber
    const intersect = (a: number, b: number) => {
      while (a !== b) {
        while (a < b) a = dom[a]!
        while (b < a) b = dom[b]!
      }
      return a
    }
    for (let changed = true; changed;) {
      changed = false
      for (let n = reachable - 1; n >= 0; n--) {
        if (n === rootNumber) continue
        let next = -1
        for (let h = holderCount[n]!; h < holderCount[n + 1]!; h++) {
          const holder = holders[h]!
          if (dom[holder] === -1) continue
          next = next === -1 ? holder : intersect(holder, next)
        }
        if (next !== dom[n]) {
          dom[n] = next
          changed = true
        }
      }
    }
    const order = new Uint32Array(reachable)
    const idom = new Int32Array(this.count).fill(-1)
    for (let n = 0; n < reachable; n++) {
      const node = byPostorder[n]!
      order[reachable - 1 - n] = node
      idom[node] = byPostorder[dom[n]!]!
    }
    return { order, idom }
  }
}
