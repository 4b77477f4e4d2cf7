import { z } from 'zod'
import { USAGE_LIMIT_REASONS } from '../http/errors.js'
import type { DialectName } from './dialect.js'
import { dialectFromWire } from './wire-dialect.js'

export const faultSpec = z
  .object({
    match: z
      .object({
        method: z.string().min(1).optional(),
        /** The raw path without query; `*` matches any run of characters. */
        path: z.string().min(1).optional(),
        /** Only requests to this origin: the generic dialect (S) or Google's (G); default both. */
        dialect: dialectFromWire.optional(),
      })
      .strict()
      .default({}),
    times: z.number().int().min(1).max(10_000).default(1),
    status: z.number().int().min(400).max(599).optional(),
    delayMs: z.number().int().min(0).max(120_000).optional(),
    retryAfter: z.number().int().min(0).max(86_400).optional(),
    /**
     * With `status` 403 or 429: a usage limit of Google's, by its reason (http/errors.ts), in
     * place of the status's usual error.
     */
    reason: z.enum(USAGE_LIMIT_REASONS).optional(),
    /** Each matching request meets the fault with this chance (1 unless told): a random blip. */
    probability: z.number().gt(0).max(1).optional(),
    /** true: drop the connection without handling the request; "after": handle it, then drop. */
    reset: z.union([z.boolean(), z.literal('after')]).optional(),
  })
  .strict()
  .refine((spec) => !spec.reason || spec.status === 403 || spec.status === 429, {
    message: 'a usage limit (reason) is answered with status 403 or 429: give one',
    path: ['status'],
  })

export type FaultSpec = z.infer<typeof faultSpec>

interface Fault extends FaultSpec {
  remaining: number
  pathPattern?: RegExp
}

/** Faults queued by the control API; each matching request uses up one. */
export class FaultBook {
  private faults: Fault[] = []

  add(spec: FaultSpec): void {
    const path = spec.match.path
    this.faults.push({
      ...spec,
      remaining: spec.times,
      pathPattern: path?.includes('*')
        ? new RegExp('^' + path.split('*').map(escapeRegExp).join('.*') + '$')
        : undefined,
    })
  }

  /**
   * The first queued fault that matches, used up by this call; a fault with a `probability` is
   * met by each matching request with that chance, and only the requests that meet it count.
   */
  take(method: string, path: string, dialect: DialectName): FaultSpec | undefined {
    const index = this.faults.findIndex(
      (f) =>
        (!f.match.method || f.match.method.toUpperCase() === method.toUpperCase()) &&
        (!f.match.path || (f.pathPattern ? f.pathPattern.test(path) : f.match.path === path)) &&
        (!f.match.dialect || f.match.dialect === dialect) &&
        (f.probability === undefined || Math.random() < f.probability),
    )
    if (index < 0) return undefined
    const fault = this.faults[index]!
    fault.remaining -= 1
    if (fault.remaining <= 0) this.faults.splice(index, 1)
    return fault
  }

  /** The faults still queued, each with how many matching requests it has left. */
  list(): (FaultSpec & { remaining: number })[] {
    return this.faults.map(({ pathPattern: _, ...fault }) => fault)
  }

  clear(): void {
    this.faults = []
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
