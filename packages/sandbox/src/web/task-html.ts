import { html } from 'hono/html'
import type { TaskLinks } from '../core/task-links.js'
import { taskJson } from '../tasks/representation.js'
import { TASKS_SHOWN_PER_LIST, type ListOutline, type OutlineTask } from './outline.js'

/**
 * The HTML of the web view's lists: a heading per list, its tasks as nested lists, completed
 * ones struck through, open ones with a Done button, assigned ones linked to their original,
 * and one task highlighted.
 */

interface RenderContext {
  links: TaskLinks
  /** The task the page is about (`/web/tasks/{task}`), highlighted. */
  target?: string
}

const FROM = { DOCUMENT: 'assigned from a document', SPACE: 'assigned from a chat space' }

const count = (n: number) => n.toLocaleString('en-US')

export function listsHtml(outlines: ListOutline[], ctx: RenderContext) {
  if (outlines.length === 0) return html`<p>You have no task lists.</p>`
  return html`${outlines.map((outline) => listHtml(outline, ctx))}`
}

function listHtml({ list, tasks, more }: ListOutline, ctx: RenderContext) {
  return html`<section>
    <h2 id="list-${list.id}">${list.title}</h2>
    ${tasks.length === 0 ? html`<p>No tasks.</p>` : tasksHtml(tasks, ctx)}
    ${
      more > 0
        ? html`<p class="more">
            ${count(more)} more ${more === 1 ? 'task' : 'tasks'} not shown: this page shows the
            first ${count(TASKS_SHOWN_PER_LIST)} tasks of each list.
          </p>`
        : ''
    }
  </section>`
}

type Html = ReturnType<typeof html>

function tasksHtml(tasks: OutlineTask[], ctx: RenderContext): Html {
  return html`<ul class="tasks">
    ${tasks.map((node) => taskHtml(node, ctx))}
  </ul>`
}

function taskHtml({ task, subtasks }: OutlineTask, ctx: RenderContext) {
  const done = task.status === 'completed'
  const assignment = taskJson(task, ctx.links).assignmentInfo
  return html`<li>
    <div class="${task.id === ctx.target ? 'task target' : 'task'}" id="task-${task.id}">
      <span class="${done ? 'title done' : 'title'}">${task.title || '(no title)'}</span>
      ${done ? html`<small>(done)</small>` : ''}
      ${task.due ? html`<small>due <time datetime="${task.due}">${task.due}</time></small>` : ''}
      ${
        assignment
          ? html`<small
              ><a href="${assignment.linkToTask}">${FROM[assignment.surfaceType]}</a></small
            >`
          : ''
      }
      ${done ? '' : doneButton(task.id, task.title)}
      ${task.notes ? html`<div><small>${task.notes}</small></div>` : ''}
    </div>
    ${subtasks.length > 0 ? tasksHtml(subtasks, ctx) : ''}
  </li>`
}

function doneButton(id: string, title: string) {
  return html`<form class="done-form" method="post" action="/web/tasks/${id}/complete">
    <button class="small" aria-label="Mark “${title || '(no title)'}” done">Done</button>
  </form>`
}
