import { assistantV2, textOf } from '@countersign/connector/testing'
import { MODERN, toolCall, type Target } from '../load.js'

/**
 * The calls of the organization's people: a `list_tasks` through the connector as a 2026-07-28
 * client sends it, the same read made directly at the provider with the person's own provider
 * token, and a `create_task` the person approves in their assistant (the SDK v2 client answering
 * the connector's question). Each ends in an outcome the day and the figures tell apart.
 */

/** One person of the organization, connected through the real OAuth flow. */
export interface Member {
  user: string
  /** Their list at the provider, with a few tasks in it. */
  tasklist: string
  /** A provider token of their own (for the direct reads, and to seed their list). */
  providerToken: string
  /** The connector's access token their assistant holds. */
  accessToken: string
  /** Their list_tasks, through the front. */
  read: Target
}

/**
 * How a call ended: `ok`; `share` refused by the connector, beyond the person's share of the
 * project's quota; `quota` refused because the provider's daily quota is used up; `failed`
 * anything else.
 */
export type Outcome = 'ok' | 'share' | 'quota' | 'failed'

export const TASKS_PER_LIST = 3

export function readThroughConnector(base: string, user: Omit<Member, 'read'>): Target {
  return toolCall({
    url: `${base}/tasks/mcp`,
    tool: 'list_tasks',
    args: { tasklist: user.tasklist },
    revision: MODERN,
    token: user.accessToken,
    ok: (body) => outcomeOfAnswer(body) === 'ok',
  })
}

/** The upstream request list_tasks makes, sent directly: a GET of the list's tasks. */
export function readDirectly(sandboxUrl: string, user: Member): Target {
  return {
    url: `${sandboxUrl}/tasks/v1/lists/${user.tasklist}/tasks`,
    method: 'GET',
    headers: { authorization: `Bearer ${user.providerToken}` },
    ok: (body) => body.includes('"kind":"tasks#tasks"'),
  }
}

/** Sends a tool call once; its outcome, read from the answer. */
export async function send(target: Target): Promise<Outcome> {
  try {
    const res = await fetch(target.url, {
      method: target.method,
      headers: target.headers,
      body: target.body,
    })
    const text = await res.text()
    return res.ok ? outcomeOfAnswer(text) : 'failed'
  } catch {
    return 'failed'
  }
}

/** A JSON-RPC answer to a tools/call, as an outcome. */
function outcomeOfAnswer(body: string): Outcome {
  let answer: { result?: { isError?: boolean; content?: { type: string; text?: string }[] } }
  try {
    answer = JSON.parse(body) as typeof answer
  } catch {
    return 'failed'
  }
  if (!answer.result) return 'failed'
  if (!answer.result.isError) return 'ok'
  const text = answer.result.content?.find((item) => item.type === 'text')?.text ?? ''
  return outcomeOfError(text)
}

function outcomeOfError(text: string): Outcome {
  if (text.includes('share of')) return 'share'
  if (/quota for today is used up/.test(text)) return 'quota'
  return 'failed'
}

/**
 * A create_task the person approves in their assistant: the SDK v2 client under 2026-07-28,
 * whose answer to the connector's question is the person's Approve.
 */
export async function approvedCreate(base: string, user: Member, title: string) {
  const assistant = await assistantV2(`${base}/tasks/mcp`, user.accessToken, () => ({
    action: 'accept',
    content: { approve: true },
  }))
  return {
    /** Sends the call; the assistant is closed after it. */
    async send(): Promise<Outcome> {
      try {
        const result = await assistant.call('create_task', { tasklist: user.tasklist, title })
        return result.isError ? outcomeOfError(textOf(result)) : 'ok'
      } catch {
        return 'failed'
      } finally {
        await assistant.close()
      }
    },
  }
}
