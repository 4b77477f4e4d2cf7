/**
 * The benches' own way into the provider: a token of a person's own from the sandbox's control
 * API (its client is another project than the connector's, whose quotas this does not touch), the
 * provider's API called with it, and a task list seeded through that API.
 */

export async function providerToken(
  sandboxUrl: string,
  user: string,
  { scopes = ['tasks'], expiresInSeconds }: { scopes?: string[]; expiresInSeconds?: number } = {},
): Promise<string> {
  const res = await fetch(`${sandboxUrl}/_sandbox/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user,
      scopes,
      ...(expiresInSeconds !== undefined && { expires_in: expiresInSeconds }),
    }),
  })
  if (!res.ok) throw new Error(`no provider token for ${user}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { access_token: string }).access_token
}

/** The provider's API as `token`'s person: a JSON answer, or an error naming the request. */
export function providerApi(sandboxUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(sandboxUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path.split('?')[0]}: ${res.status} ${text}`)
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }
}

/** A task list `title` with `count` tasks ("Task 1" first), made through the API; its id. */
export async function seedTaskList(
  sandboxUrl: string,
  token: string,
  title: string,
  count: number,
): Promise<string> {
  const api = providerApi(sandboxUrl, token)
  const { id } = (await api('POST', '/tasks/v1/lists', { title })) as { id: string }
  for (let i = count; i >= 1; i--)
    await api('POST', `/tasks/v1/lists/${id}/tasks`, { title: `Task ${i}` })
  return id
}
