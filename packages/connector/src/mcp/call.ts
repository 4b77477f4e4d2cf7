import { pathParamsOf, type ToolDefinition } from '../services/definition.js'
import type { Operation } from '../services/profiles/index.js'
import type { SharedQuotaName } from '../config/config.js'
import { quotaOf } from '../quotas/shared-quotas.js'
import type { ApiCall, ApiResult, QueryValue } from '../upstream/index.js'

/**
 * How a tool's validated, flat arguments become one upstream request, and how its answer
 * becomes the tool's structured result. Read once, at startup, from the definition and from its
 * operation in the provider profile (the method and path, which the profile may move):
 *
 * - a field named in the path (`{tasklist}`) fills that path segment;
 * - a field listed in `query` becomes a query parameter;
 * - with `body: 'rest'`, every other field given (null included: it clears a value) is a field
 *   of the JSON body; with `body: 'none'` there is no body.
 */
export class CallShape {
  readonly pathParams: readonly string[]
  /** The provider project's daily quota a call spends, when one is shared out (src/quotas). */
  readonly quota: SharedQuotaName | undefined
  readonly #query: readonly string[]
  readonly #bodyFields: ((name: string) => boolean) | undefined

  constructor(
    private readonly definition: ToolDefinition,
    private readonly operation: Operation,
  ) {
    this.pathParams = pathParamsOf(operation.path)
    const seed = pathParamsOf(definition.path)
    if (seed.length !== this.pathParams.length || seed.some((p) => !this.pathParams.includes(p)))
      throw new Error(
        `The operation of ${definition.name} (${operation.path}) must take the path parameters of ${definition.path}.`,
      )
    this.quota = quotaOf(definition.service, definition.name)
    this.#query = definition.query
    const elsewhere = new Set([...this.pathParams, ...definition.query])
    this.#bodyFields = definition.body === 'rest' ? (name) => !elsewhere.has(name) : undefined
  }

  /** The upstream request for arguments the input schema accepted. */
  apiCall(args: Record<string, unknown>, ifMatch?: string): ApiCall {
    const { definition, operation } = this
    const pathParams: Record<string, string> = {}
    for (const name of this.pathParams) pathParams[name] = String(args[name])
    const query: Record<string, QueryValue> = {}
    for (const name of this.#query) query[name] = args[name] as QueryValue
    const call: ApiCall = {
      service: definition.service,
      method: operation.method,
      path: operation.path,
      pathParams,
      query,
      idempotent: definition.idempotent,
    }
    if (operation.api) call.api = operation.api
    if (this.quota) call.quota = this.quota
    if (this.#bodyFields) {
      const body: Record<string, unknown> = {}
      for (const name in args) {
        if (args[name] !== undefined && this.#bodyFields(name)) body[name] = args[name]
      }
      call.body = body
    }
    if (ifMatch !== undefined) call.ifMatch = ifMatch
    return call
  }

  /**
   * What the provider answered, before it is checked: the resource or page it sent, or for an
   * answer without a body what the definition says it stands for.
   */
  answerOf(result: ApiResult, args: Record<string, unknown>): unknown {
    if (result.body === undefined && this.definition.answerWithoutBody)
      return this.definition.answerWithoutBody(args)
    return result.body
  }
}
