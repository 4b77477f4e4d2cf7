import { describe, expect, it } from 'vitest'
import { seedTasks } from '../../src/tasks/seed.js'
import { sandboxForSuite, type ApiResponse } from '../support/sandbox.js'
import { newUser, type Resource, type TestUser } from '../tasks/client.js'

const sandbox = sandboxForSuite()

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** Signs a browser in through the form, as a person would; returns its session cookie. */
async function signIn(user: string, next = '/web/tasks') {
  const res = await sandbox.request('POST', '/account/sign-in', {
    rawBody: new URLSearchParams({ user, next }).toString(),
    headers: FORM,
  })
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe(next)
  return res.headers.get('set-cookie')!.split(';')[0]!
}

const view = (path: string, cookie?: string) =>
  sandbox.request('GET', path, { headers: cookie ? { cookie } : {} })

/** The path of an absolute link the sandbox gave out, checked to be on its origin. */
function pathOf(link: string): string {
  expect(link.startsWith(`${sandbox.url}/`)).toBe(true)
  return link.slice(sandbox.url.length)
}

/**
 * What the person sees, as text: per list heading, its tasks in page order, indented two
 * spaces per level of nesting, `~` before a struck-through (completed) title.
 */
function outline(page: string): Record<string, string[]> {
  const lists: Record<string, string[]> = {}
  for (const section of page.split('<section>').slice(1)) {
    const heading = /<h2[^>]*>([^<]*)<\/h2>/.exec(section)![1]!
    const lines: string[] = []
    let depth = 0
    for (const m of section.matchAll(
      /<ul class="tasks">|<\/ul>|<span class="title( done)?">([^<]*)<\/span>/g,
    )) {
      if (m[0] === '<ul class="tasks">') depth++
      else if (m[0] === '</ul>') depth--
      else lines.push(`${'  '.repeat(depth - 1)}${m[1] ? '~' : ''}${m[2]}`)
    }
    lists[heading] = lines
  }
  return lists
}

const expectPageHeaders = (res: ApiResponse) => {
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  expect(res.headers.get('x-frame-options')).toBe('DENY')
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  expect(res.headers.get('cache-control')).toBe('no-store')
}

/** A user with tasks to look at, made through the task API, and a signed-in browser. */
async function personWithTasks() {
  const user = await newUser(sandbox)
  const cookie = await signIn(user.name)
  return { user, cookie }
}

const add = (user: TestUser, title: string, where: Record<string, string> = {}, list?: string) =>
  user.createTask({ title }, where, list) as Promise<Resource>

describe('the web view of tasks (/web/tasks)', () => {
  it('without a session, shows the sign-in form that comes back to /web/tasks', async () => {
    for (const cookie of [undefined, 'sandbox_session=forged']) {
      const res = await view('/web/tasks', cookie)
      expect(res.status).toBe(200)
      expectPageHeaders(res)
      expect(res.text).toContain('<form method="post" action="/account/sign-in">')
      expect(res.text).toContain('<input type="hidden" name="next" value="/web/tasks" />')
      expect(res.text).toContain('name="user"')
      expect(res.text).toMatch(/<button[^>]*>Sign in<\/button>/)
      expect(res.text).not.toContain('Signed in as')
    }
  })

  it('shows each list in order with its tasks depth first, subtasks nested, completed ones struck through', async () => {
    const { user, cookie } = await personWithTasks()
    const errands = await user.createList('Errands')
    const a = await add(user, 'A')
    const b = await add(user, 'B', { previous: a.id })
    const a1 = await add(user, 'A1', { parent: a.id })
    await add(user, 'A2', { parent: a.id, previous: a1.id })
    await add(user, 'A1a', { parent: a1.id })
    await add(user, 'C') // first among top-level tasks
    await user.patch(b.id, { status: 'completed' })
    await user.patch(a1.id, { status: 'completed' })
    const milk = await add(user, 'Milk', {}, errands.id)
    await add(user, 'Bread', { previous: milk.id }, errands.id)
    await user.createList('Empty')

    const res = await view('/web/tasks', cookie)
    expect(res.status).toBe(200)
    expectPageHeaders(res)
    expect(res.text).toContain(`Signed in as <strong>${user.name}</strong>`)
    expect(outline(res.text)).toEqual({
      'My Tasks': ['C', 'A', '  ~A1', '    A1a', '  A2', '~B'],
      Errands: ['Milk', 'Bread'],
      Empty: [],
    })
    expect(Object.keys(outline(res.text))).toEqual(['My Tasks', 'Errands', 'Empty'])
    expect(res.text).toContain('No tasks.')
    // No task is highlighted on the page of all tasks.
    expect(res.text).not.toContain('task target')
  })

  it('leaves out deleted and hidden tasks; a live subtask of a hidden task stays, one level up', async () => {
    const { user, cookie } = await personWithTasks()
    const gone = await add(user, 'Gone')
    await add(user, 'Gone child', { parent: gone.id })
    const cleared = await add(user, 'Cleared', { previous: gone.id })
    await add(user, 'Open child of cleared', { parent: cleared.id })
    const keep = await add(user, 'Kept', { previous: cleared.id })
    const doneKept = await add(user, 'Done, not cleared yet', { previous: keep.id })
    await user.remove(gone.id)
    await user.patch(cleared.id, { status: 'completed' })
    expect((await user.call('POST', '/lists/@default/clear')).status).toBe(200)
    await user.patch(doneKept.id, { status: 'completed' })

    const res = await view('/web/tasks', cookie)
    expect(outline(res.text)['My Tasks']).toEqual([
      'Open child of cleared',
      'Kept',
      '~Done, not cleared yet',
    ])
    expect(res.text).not.toContain('Gone')
    expect(res.text).not.toContain('>Cleared<')
  })

  it('marks assigned tasks with a link to their original, and shows the due day as written', async () => {
    const { user, cookie } = await personWithTasks()
    await add(user, 'Plain')
    await user.createTask({ title: 'Dated', due: '2026-05-01T23:30:00-07:00' })
    const fromDoc = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: {
          user: user.name,
          tasklist: '@default',
          title: 'Review draft',
          surfaceType: 'DOCUMENT',
        },
      })
    ).body
    const fromSpace = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: user.name, tasklist: '@default', title: 'Answer Bo', surfaceType: 'SPACE' },
      })
    ).body

    const res = await view('/web/tasks', cookie)
    expect(outline(res.text)['My Tasks']).toEqual(['Answer Bo', 'Review draft', 'Dated', 'Plain'])
    expect(res.text).toContain(
      `<a href="${fromDoc.assignmentInfo.linkToTask}">assigned from a document</a>`,
    )
    expect(res.text).toContain(
      `<a href="${fromSpace.assignmentInfo.linkToTask}">assigned from a chat space</a>`,
    )
    expect(res.text.match(/assigned from a/g)).toHaveLength(2)
    expect(res.text).toContain('due <time datetime="2026-05-01">2026-05-01</time>')
    expect(res.text.match(/due <time/g)).toHaveLength(1)
  })

  it('escapes what the user wrote', async () => {
    const { user, cookie } = await personWithTasks()
    await user.createList('<b>List</b> & co')
    await user.createTask({ title: '<script>alert(1)</script>', notes: '<img src=x onerror=1>' })
    const res = await view('/web/tasks', cookie)
    expect(res.text).not.toContain('<script>alert')
    expect(res.text).not.toContain('<img')
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(res.text).toContain('&lt;b&gt;List&lt;/b&gt; &amp; co')
  })

  it('shows at most 1,000 tasks of a list and says how many more there are', async () => {
    const { user, cookie } = await personWithTasks()
    await seedTasks(sandbox.db, { user: user.name, tasklist: '@default', count: 1003 })
    await seedTasks(sandbox.db, {
      user: user.name,
      tasklist: '@default',
      count: 5,
      hidden: true,
      titlePrefix: 'Hidden',
    })
    const res = await view('/web/tasks', cookie)
    const tasks = outline(res.text)['My Tasks']!
    expect(tasks).toHaveLength(1000)
    expect(tasks.at(-1)).toBe('Task 1000')
    expect(res.text).toMatch(
      /3 more tasks not shown: this page shows the\s+first 1,000 tasks of each list\./,
    )
  })
})

describe('a task’s webViewLink (/web/tasks/{task})', () => {
  it('resolves for its owner: the page of all tasks with that task highlighted', async () => {
    const { user, cookie } = await personWithTasks()
    const first = await add(user, 'First')
    const target = await add(user, 'The one', { previous: first.id })
    const done = await add(user, 'Finished', { previous: target.id })
    await user.patch(done.id, { status: 'completed' })

    const res = await view(pathOf(target.webViewLink), cookie)
    expect(res.status).toBe(200)
    expectPageHeaders(res)
    expect(res.text).toContain('<title>The one · Sandbox provider</title>')
    expect(res.text).toContain(`<div class="task target" id="task-${target.id}">`)
    expect(res.text.match(/class="task target"/g)).toHaveLength(1)
    expect(res.text).toContain(`<a href="#task-${target.id}">`)
    expect(outline(res.text)['My Tasks']).toEqual(['First', 'The one', '~Finished'])
  })

  it('without a session, shows the sign-in form that comes back to this task', async () => {
    const { user } = await personWithTasks()
    const task = await add(user, 'Mine')
    const res = await view(pathOf(task.webViewLink))
    expect(res.status).toBe(200)
    expectPageHeaders(res)
    expect(res.text).toContain(`<input type="hidden" name="next" value="/web/tasks/${task.id}" />`)
    expect(res.text).not.toContain('Mine')
  })

  it("is 404 for another user's task and for an unknown one, saying nothing about the task", async () => {
    const { user } = await personWithTasks()
    const secret = await add(user, 'Secret plans')
    const other = await personWithTasks()
    for (const path of [pathOf(secret.webViewLink), '/web/tasks/nope', '/web/tasks/%3Cb%3E']) {
      const res = await view(path, other.cookie)
      expect(res.status).toBe(404)
      expectPageHeaders(res)
      expect(res.text).toContain('<h1>No such task</h1>')
      expect(res.text).not.toContain('Secret plans')
      expect(res.text).not.toContain('<b>')
    }
  })

  it('for a deleted task, says it was deleted, and the list leaves it out', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await add(user, 'Old news')
    await add(user, 'Still here', { previous: task.id })
    await user.remove(task.id)
    const res = await view(pathOf(task.webViewLink), cookie)
    expect(res.status).toBe(200)
    expect(res.text).toContain('This task was deleted')
    expect(outline(res.text)['My Tasks']).toEqual(['Still here'])
    expect(res.text).not.toContain('task target')
  })

  it('for a hidden task, says it was cleared from its list', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await add(user, 'Done and cleared')
    await user.patch(task.id, { status: 'completed' })
    await user.call('POST', '/lists/@default/clear')
    const res = await view(pathOf(task.webViewLink), cookie)
    expect(res.status).toBe(200)
    expect(res.text).toContain('This task is hidden')
    expect(outline(res.text)['My Tasks']).toEqual([])
  })
})

describe('an assigned task’s linkToTask (/web/surfaces/{id})', () => {
  const assign = async (user: string, title: string, surfaceType: 'DOCUMENT' | 'SPACE') => {
    const res = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user, tasklist: '@default', title, surfaceType },
    })
    expect(res.status).toBe(200)
    return res.body as Resource
  }

  it('shows the original in its surface: the surface type and the title', async () => {
    const { user, cookie } = await personWithTasks()
    const doc = await assign(user.name, 'Review the draft', 'DOCUMENT')
    const space = await assign(user.name, 'Reply to Bo', 'SPACE')

    const inDoc = await view(pathOf(doc.assignmentInfo.linkToTask), cookie)
    expect(inDoc.status).toBe(200)
    expectPageHeaders(inDoc)
    expect(inDoc.text).toContain('<h1>A task in a document</h1>')
    expect(inDoc.text).toContain('<code>DOCUMENT</code>')
    expect(inDoc.text).toContain('<strong>Review the draft</strong>')

    const inSpace = await view(pathOf(space.assignmentInfo.linkToTask), cookie)
    expect(inSpace.status).toBe(200)
    expect(inSpace.text).toContain('<h1>A task in a chat space</h1>')
    expect(inSpace.text).toContain('<code>SPACE</code>')
    expect(inSpace.text).toContain('<strong>Reply to Bo</strong>')
  })

  it('is 410 once the assigned task was deleted, which deletes its original too', async () => {
    const { user, cookie } = await personWithTasks()
    const doc = await assign(user.name, 'Draft', 'DOCUMENT')
    const space = await assign(user.name, 'Chat', 'SPACE')
    await user.remove(doc.id)
    await user.remove(space.id)
    const inDoc = await view(pathOf(doc.assignmentInfo.linkToTask), cookie)
    expect(inDoc.status).toBe(410)
    expectPageHeaders(inDoc)
    expect(inDoc.text).toContain('<h1>This task was deleted in its document</h1>')
    const inSpace = await view(pathOf(space.assignmentInfo.linkToTask), cookie)
    expect(inSpace.status).toBe(410)
    expect(inSpace.text).toContain('<h1>This task was deleted in its space</h1>')
  })

  it("is 404 when unknown or another user's; without a session it asks to sign in", async () => {
    const { user } = await personWithTasks()
    const doc = await assign(user.name, 'Private doc task', 'DOCUMENT')
    const other = await personWithTasks()
    for (const path of ['/web/surfaces/unknown', pathOf(doc.assignmentInfo.linkToTask)]) {
      const res = await view(path, other.cookie)
      expect(res.status).toBe(404)
      expectPageHeaders(res)
      expect(res.text).toContain('<h1>No such task</h1>')
      expect(res.text).not.toContain('Private doc task')
    }
    const signedOut = await view(pathOf(doc.assignmentInfo.linkToTask))
    expect(signedOut.status).toBe(200)
    expect(signedOut.text).toContain(`name="next" value="${pathOf(doc.assignmentInfo.linkToTask)}"`)
    expect(signedOut.text).not.toContain('Private doc task')
  })
})

/** A button's form post from a page of the sandbox, with what browsers add to it. */
const press = (path: string, cookie?: string, site = 'same-origin') =>
  sandbox.request('POST', path, {
    rawBody: '',
    headers: { ...FORM, 'sec-fetch-site': site, ...(cookie ? { cookie } : {}) },
  })

describe('the Done button (POST /web/tasks/{task}/complete)', () => {
  it('completes the task as first-party clients do: list_tasks shows it only with showHidden', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await add(user, 'Water the plants')
    await add(user, 'Call the bank', { previous: task.id })
    const before = await view('/web/tasks', cookie)
    expect(before.text).toContain(
      `<form class="done-form" method="post" action="/web/tasks/${task.id}/complete">`,
    )
    expect(before.text).toContain('aria-label="Mark “Water the plants” done"')

    const res = await press(`/web/tasks/${task.id}/complete`, cookie)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/web/tasks/${task.id}`)

    expect(await user.titles()).toEqual(['Call the bank'])
    expect(await user.titles({ showCompleted: 'true' })).toEqual(['Call the bank'])
    const shown = (await user.allTasks({ showHidden: 'true' })).find((t) => t.id === task.id)!
    expect(shown).toMatchObject({ status: 'completed', hidden: true })
    expect(Date.parse(shown.completed as string)).toBeGreaterThan(Date.now() - 60_000)

    const after = await view(res.headers.get('location')!, cookie)
    expect(after.text).toContain('This task is hidden')
    expect(outline(after.text)['My Tasks']).toEqual(['Call the bank'])
  })

  it('keeps the completion time of a task already done, and pressing again changes nothing', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await add(user, 'Done earlier')
    await user.patch(task.id, { status: 'completed', completed: '2026-01-02T03:04:05.000Z' })
    expect((await view('/web/tasks', cookie)).text).not.toContain(`/web/tasks/${task.id}/complete`)
    for (let i = 0; i < 2; i++)
      expect((await press(`/web/tasks/${task.id}/complete`, cookie)).status).toBe(303)
    expect(await user.getTask(task.id)).toMatchObject({
      status: 'completed',
      completed: '2026-01-02T03:04:05.000Z',
      hidden: true,
    })
  })

  it('changes nothing when sent from another site, without a session, or for another user', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await add(user, 'Mine alone')
    const crossSite = await press(`/web/tasks/${task.id}/complete`, cookie, 'cross-site')
    expect(crossSite.status).toBe(400)
    expectPageHeaders(crossSite)
    expect(crossSite.text).toContain('This form was sent from another site.')
    const signedOut = await press(`/web/tasks/${task.id}/complete`)
    expect(signedOut.status).toBe(400)
    expect(signedOut.text).toContain('nothing was changed')
    expect(signedOut.text).toContain(`name="next" value="/web/tasks/${task.id}"`)
    const other = await personWithTasks()
    const foreign = await press(`/web/tasks/${task.id}/complete`, other.cookie)
    expect(foreign.status).toBe(404)
    expect(foreign.text).toContain('<h1>No such task</h1>')
    expect(foreign.text).not.toContain('Mine alone')
    expect(await user.getTask(task.id)).toMatchObject({ status: 'needsAction', hidden: false })
  })
})

describe('unassigning from the source surface (POST /web/surfaces/{id}/unassign)', () => {
  const assign = async (user: string, title: string) => {
    const res = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user, tasklist: '@default', title, surfaceType: 'DOCUMENT' },
    })
    expect(res.status).toBe(200)
    return res.body as Resource
  }

  it('removes the assigned task alone: the original stays in its document', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await assign(user.name, 'Review the draft')
    const surface = pathOf(task.assignmentInfo.linkToTask)
    const before = await view(surface, cookie)
    expect(before.text).toContain(`<form method="post" action="${surface}/unassign">`)
    expect(before.text).toMatch(/<button>Unassign<\/button>/)

    const res = await press(`${surface}/unassign`, cookie)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(surface)
    expect(await user.titles({ showAssigned: 'true' })).toEqual([])
    expect(
      await user.titles({ showAssigned: 'true', showDeleted: 'true', showHidden: 'true' }),
    ).toEqual(['Review the draft'])

    const after = await view(surface, cookie)
    expect(after.status).toBe(200)
    expect(after.text).toContain('<strong>Review the draft</strong>')
    expect(after.text).toContain('Not assigned to you any more:')
    expect(after.text).not.toContain('/unassign')
    // Again: nothing more to do, and the original is still there.
    expect((await press(`${surface}/unassign`, cookie)).status).toBe(303)
    expect((await view(surface, cookie)).status).toBe(200)
  })

  it('changes nothing when sent from another site, or by another user', async () => {
    const { user, cookie } = await personWithTasks()
    const task = await assign(user.name, 'Keep me')
    const surface = pathOf(task.assignmentInfo.linkToTask)
    expect((await press(`${surface}/unassign`, cookie, 'cross-site')).status).toBe(400)
    const other = await personWithTasks()
    const foreign = await press(`${surface}/unassign`, other.cookie)
    expect(foreign.status).toBe(404)
    expect(foreign.text).not.toContain('Keep me')
    expect(await user.titles({ showAssigned: 'true' })).toEqual(['Keep me'])
  })
})
