/** A limit no bench reaches: 10^12 requests or tokens. */
const UNLIMITED = 1e12

/**
 * Lifts every quota of Google's that the sandbox at `sandboxUrl` enforces (docs/sandbox.md,
 * "Quotas"): the benches make thousands of calls a minute on one project, person and property,
 * far past Google's limits, and measure the stack, not the refusals. Every name the sandbox
 * serves is lifted, so a quota added later is lifted too. Call it at every start: the limits
 * live in the running sandbox's memory.
 */
export async function liftSandboxQuotas(sandboxUrl: string): Promise<void> {
  const current = await fetch(`${sandboxUrl}/_sandbox/quotas`)
  if (!current.ok) throw new Error(`the sandbox did not list its quotas: ${await current.text()}`)
  const names = Object.keys((await current.json()) as Record<string, number>)
  await setSandboxQuotas(sandboxUrl, Object.fromEntries(names.map((name) => [name, UNLIMITED])))
}

/** Sets quotas of the sandbox at `sandboxUrl` by Google's names (`tasksQueriesPerDay`, ...). */
export async function setSandboxQuotas(
  sandboxUrl: string,
  limits: Record<string, number>,
): Promise<void> {
  const res = await fetch(`${sandboxUrl}/_sandbox/quotas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(limits),
  })
  if (!res.ok) throw new Error(`the sandbox kept its quotas: ${await res.text()}`)
}
