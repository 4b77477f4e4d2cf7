import type { AuthorizationFlow } from '@countersign/connector/testing'
import { providerToken, seedTaskList } from '../provider.js'
import { readThroughConnector, TASKS_PER_LIST, type Member } from './calls.js'

/**
 * The organization's people joining: each gets a task list with a few tasks at the provider
 * (through the provider's API, with a token of their own), then connects their assistant to
 * Tasks through the connector's real OAuth flow (registration of the assistant, consent,
 * sign-in at the provider, choice of what the grant covers, code exchange). The people share
 * a few assistants, as an organization's people use the same few products: one registered
 * client each, and one grant per person.
 */

/** How many people join at once: the flow's pace on two cores flattens out about here. */
const JOINING_AT_ONCE = 24

type Client = Awaited<ReturnType<AuthorizationFlow['registerClient']>>

export interface Organization {
  readonly flow: AuthorizationFlow
  readonly sandboxUrl: string
  /** The assistants the people use. */
  readonly assistants: readonly Client[]
}

/** Registers the organization's assistants at the connector. */
export async function organization(
  flow: AuthorizationFlow,
  sandboxUrl: string,
  names: readonly string[],
): Promise<Organization> {
  const assistants: Client[] = []
  for (const name of names) assistants.push(await flow.registerClient({ client_name: name }))
  return { flow, sandboxUrl, assistants }
}

/** `users` join, `JOINING_AT_ONCE` at a time; their members in the order of `users`. */
export async function join(org: Organization, users: readonly string[]): Promise<Member[]> {
  const members: Member[] = []
  let next = 0
  const joiner = async () => {
    for (let i = next++; i < users.length; i = next++) members[i] = await joinOne(org, users[i]!, i)
  }
  await Promise.all(Array.from({ length: JOINING_AT_ONCE }, joiner))
  return members
}

async function joinOne(org: Organization, user: string, index: number): Promise<Member> {
  return connect(org, await seed(org, user), index)
}

/** A person's list at the provider, before they connect. */
export interface Seeded {
  user: string
  tasklist: string
  providerToken: string
}

/** Makes the person's list and tasks at the provider. */
export async function seed(org: Organization, user: string): Promise<Seeded> {
  // A day long, whatever the sandbox's token lifetime: the bench must not see one expire.
  const token = await providerToken(org.sandboxUrl, user, { expiresInSeconds: 86_400 })
  const tasklist = await seedTaskList(org.sandboxUrl, token, 'Work', TASKS_PER_LIST)
  return { user, tasklist, providerToken: token }
}

/** Connects the person's assistant (the `index`th person's: assistants in turn) to Tasks. */
export async function connect(org: Organization, seeded: Seeded, index: number): Promise<Member> {
  const { flow } = org
  const { tokens } = await flow.connect({
    client: org.assistants[index % org.assistants.length],
    service: 'tasks',
    person: flow.person(seeded.user),
  })
  const member = { ...seeded, accessToken: tokens.access_token }
  return { ...member, read: readThroughConnector(flow.url, member) }
}
