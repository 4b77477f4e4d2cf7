import type { SandboxDb } from '../db/open.js'
import { assertRoomForList } from './limits.js'
import { newId, type ListRow } from './rows.js'
import { now } from './timestamps.js'

/** create_task_list: a new list last in the user's order, within the 2000-list limit. */
export async function createTaskList(db: SandboxDb, user: string, title: string): Promise<ListRow> {
  return db.transaction().execute(async (trx) => {
    await assertRoomForList(trx, user)
    const id = newId()
    await trx
      .insertInto('task_lists')
      .values({ id, user_id: user, title, updated: now() })
      .execute()
    return trx.selectFrom('task_lists').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  })
}
