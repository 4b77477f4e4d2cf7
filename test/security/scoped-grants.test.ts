import { describe, expect, it } from 'vitest'
import {
  AuthorizationStopped,
  connectorForSuite,
  coverageAnswer,
  csrfOf,
  type Person,
  taskFixtures,
} from '@countersign/connector/testing'

/**
 * The choice of what a grant covers, at consent (docs/threat-model.md, "A grant used beyond what
 * the person chose"), attacked: a post naming lists the person does not have, a post into another
 * person's authorization, a post without the page's token or from another site, a post replayed, a
 * post larger than its page could send. Each is refused and makes no grant; the person's own choice
 * still stands. (Every argument position of every tool:
 * packages/connector/test/mcp/coverage.test.ts; the connections page: .../account/coverage.test.ts;
 * another replica: test/e2e/replicas.test.ts.)
 */

const suite = connectorForSuite()
const { seed } = taskFixtures(suite)

let people = 0

/** A person stopped on the choice page of a new authorization: its URL and the page. */
async function atTheChoice(user = `chooser-${++people}`) {
  const person = suite.person(user)
  const mine = await seed(user, 0, 'Mine')
  const client = await suite.registerClient({ client_name: 'Chooser Assistant' })
  const url = suite.authorizationUrl(client, 'tasks', suite.pkce())
  const stopped = await person.authorize(url, { cover: 'stop' }).catch((error: unknown) => error)
  expect(stopped).toBeInstanceOf(AuthorizationStopped)
  const { url: choice, page } = stopped as AuthorizationStopped
  expect(choice).toMatch(/\/consent\/[^/]+\/choose$/)
  return { person, user, choice, page, mine: mine.tasklist }
}

const post = async (person: Person, url: string, form: URLSearchParams, headers = {}) => {
  const res = await person.fetch('POST', url, form, headers)
  return { status: res.status, text: await res.text(), location: res.headers.get('location') }
}

describe('the choice at consent, attacked', () => {
  it('a post naming a list the person does not have: refused, no grant; their own choice still works', async () => {
    const p = await atTheChoice()
    const stranger = await seed(`stranger-${++people}`, 0, 'Theirs')
    const before = await suite.holdings()
    const refused = await post(
      p.person,
      p.choice,
      coverageAnswer(p.page, [p.mine, stranger.tasklist]),
    )
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('The form named a task list that is not yours.')
    expect((await suite.holdings()).grant_links).toBe(before.grant_links)
    const chosen = await post(p.person, p.choice, coverageAnswer(refused.text, [p.mine]))
    expect(chosen.status).toBe(303)
    expect((await suite.holdings()).grant_links).toBe(before.grant_links! + 1)
  })

  it("a post into another person's authorization: the page has expired for them, and nothing is granted", async () => {
    const victim = await atTheChoice()
    const attacker = await atTheChoice()
    const before = await suite.holdings()
    // The attacker's own page's form, sent to the victim's choice: no interaction of theirs.
    const refused = await post(attacker.person, victim.choice, coverageAnswer(attacker.page, 'all'))
    expect(refused.status).toBe(410)
    expect((await suite.holdings()).grant_links).toBe(before.grant_links)
    // The victim's choice is theirs still.
    expect(
      (await post(victim.person, victim.choice, coverageAnswer(victim.page, 'all'))).status,
    ).toBe(303)
  })

  it('a post without the page’s token, with another authorization’s, or from another site: refused', async () => {
    const p = await atTheChoice()
    const other = await atTheChoice()
    const before = await suite.holdings()
    const form = coverageAnswer(p.page, 'all')
    form.delete('csrf')
    expect((await post(p.person, p.choice, form)).status).toBe(400)
    form.set('csrf', csrfOf(other.page))
    expect((await post(p.person, p.choice, form)).text).toContain('out of date')
    const cross = await post(p.person, p.choice, coverageAnswer(p.page, 'all'), {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    })
    expect(cross.status).toBe(400)
    expect(cross.text).toContain('sent from another site')
    expect((await suite.holdings()).grant_links).toBe(before.grant_links)
  })

  it('a post replayed after the grant was made: the page has expired; one grant', async () => {
    const p = await atTheChoice()
    const before = await suite.holdings()
    const form = coverageAnswer(p.page, 'all')
    expect((await post(p.person, p.choice, form)).status).toBe(303)
    expect((await post(p.person, p.choice, form)).status).toBe(410)
    expect((await suite.holdings()).grant_links).toBe(before.grant_links! + 1)
  })

  it('a post larger than its page could send is read no further: 413, and nothing granted', async () => {
    const p = await atTheChoice()
    const before = await suite.holdings()
    const form = coverageAnswer(p.page, [p.mine])
    for (let i = 0; i < 400; i++) form.append('resource', `made-up-list-${i}`)
    const refused = await post(p.person, p.choice, form)
    expect(refused.status).toBe(413)
    expect((await suite.holdings()).grant_links).toBe(before.grant_links)
  })

  it('Deny: no grant, the credential released, the choice gone', async () => {
    const p = await atTheChoice()
    const before = await suite.holdings()
    const denied = await post(p.person, p.choice, coverageAnswer(p.page, 'Deny'))
    expect(denied.status).toBe(303)
    const after = await suite.holdings()
    expect(after.grant_links).toBe(before.grant_links)
    expect(after.upstream_credentials).toBe(before.upstream_credentials! - 1)
    expect(after.grant_choices).toBe(before.grant_choices! - 1)
  })
})
