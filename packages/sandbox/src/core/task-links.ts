/**
 * Where a Task's and a TaskList's links point. `selfLink` names the resource on the API origin
 * that answered (each dialect spells a list's path its own way); `webViewLink` and `linkToTask`
 * open the sandbox's own pages, which only the generic dialect's origin serves.
 */
export interface TaskLinks {
  list(listId: string): string
  task(listId: string, taskId: string): string
  /** The origin of the sandbox's pages (`/web/...`). */
  readonly pages: string
}
