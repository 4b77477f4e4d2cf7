import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { expect } from 'vitest'
import { providerError, type ApiResponse, type sandboxForSuite } from '../support/sandbox.js'

/** Helpers for the task API tests: a fresh user per test, calls by path, and error checks. */

type Sandbox = ReturnType<typeof sandboxForSuite>
type Query = Record<string, string | number | boolean | undefined>

export function qs(query: Query = {}): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** Asserts the provider's error: HTTP code, canonical status and reason. */
export function expectError(res: ApiResponse, code: number, status: string, reason: string) {
  if (res.status !== code)
    throw new Error(`expected ${code} ${reason}, got ${res.status}: ${res.text}`)
  const error = providerError(res)
  expect(error.code).toBe(code)
  expect(error.status).toBe(status)
  expect(error.errors[0]!.reason).toBe(reason)
  return error
}

export const expectInvalid = (res: ApiResponse) =>
  expectError(res, 400, 'INVALID_ARGUMENT', 'invalid')
export const expectPrecondition = (res: ApiResponse) =>
  expectError(res, 400, 'FAILED_PRECONDITION', 'failedPrecondition')
export const expectLimit = (res: ApiResponse) =>
  expectError(res, 400, 'FAILED_PRECONDITION', 'limitExceeded')
export const expectNotFound = (res: ApiResponse) => expectError(res, 404, 'NOT_FOUND', 'notFound')

/** A JSON resource or page as the API returns it: tests read its fields freely. */
export type Resource = ApiResponse['body']

function ok<T = Resource>(res: ApiResponse<T>): T {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`)
  return res.body
}

let users = 0

/** A new user (so no test sees another's lists) with a token and the calls tests make. */
export async function newUser(sandbox: Sandbox, scopes = ['tasks']) {
  const name = `user${++users}`
  const token = await sandbox.token(name, scopes)
  const call = (
    method: string,
    path: string,
    init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) => sandbox.request(method, `/tasks/v1${path}`, { token, ...init })

  const user = {
    name,
    token,
    call,
    async createTask(body: Record<string, unknown> = {}, where: Query = {}, list = '@default') {
      return ok(await call('POST', `/lists/${list}/tasks${qs(where)}`, { body }))
    },
    async createList(title: string) {
      return ok(await call('POST', '/lists', { body: { title } }))
    },
    async getTask(id: string, list = '@default') {
      return ok(await call('GET', `/lists/${list}/tasks/${id}`))
    },
    async patch(id: string, body: Record<string, unknown>, list = '@default') {
      return ok(await call('PATCH', `/lists/${list}/tasks/${id}`, { body }))
    },
    async remove(id: string, list = '@default') {
      return ok(await call('DELETE', `/lists/${list}/tasks/${id}`))
    },
    move(id: string, to: Query = {}, list = '@default') {
      return call('POST', `/lists/${list}/tasks/${id}/move${qs(to)}`)
    },
    async page(query: Query = {}, list = '@default') {
      return ok(await call('GET', `/lists/${list}/tasks${qs(query)}`))
    },
    /** Every task list_tasks returns, page by page. */
    async allTasks(query: Query = {}, list = '@default') {
      const items: Resource[] = []
      let pageToken: string | undefined
      do {
        const page = await user.page({ maxResults: 100, ...query, pageToken }, list)
        items.push(...page.items)
        pageToken = page.nextPageToken
      } while (pageToken)
      return items
    },
    async titles(query: Query = {}, list = '@default') {
      return (await user.allTasks(query, list)).map((t) => t.title as string)
    },
    /** The real id of the default list. */
    async defaultList(): Promise<string> {
      return ok(await call('GET', '/lists/@default')).id
    },
  }
  return user
}

export type TestUser = Awaited<ReturnType<typeof newUser>>

/** Counts queries and rows written by INSERT, UPDATE and DELETE, through the query layer. */
export class QueryCounter implements KyselyPlugin {
  queries = 0
  written = 0

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries++
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (args.result.numAffectedRows !== undefined)
      this.written += Number(args.result.numAffectedRows)
    return args.result
  }

  reset() {
    this.queries = 0
    this.written = 0
  }
}
