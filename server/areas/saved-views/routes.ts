/**
 * Saved views (contract/saved-views.ts): each admin reads and changes only their own. A view is for
 * a screen the admin may open now; views of screens they lost are kept but not listed. A deleted
 * view goes to the trash (server/kit/request/undo.ts) for its undo window, like every delete.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm'
import * as savedViewsContract from '#contract/saved-views'
import { MAX_VIEWS_PER_LIST, VIEW_NAME_TAKEN } from '#contract/saved-views'
import { mayOpen, screenPaths } from '#contract/routes'
import { failure } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { deleteRecord } from '../../kit/request/delete.ts'
import { restorable } from '../../kit/request/undo.ts'
import { sqlState } from '../../db/index.ts'
import { savedViews } from '../../db/schema.ts'

const UNKNOWN_LIST = 'This list cannot be saved as a view'
const fullMessage = `You can keep at most ${MAX_VIEWS_PER_LIST} views per list; delete one first`

const viewTrash = restorable({
  name: 'saved_views',
  table: savedViews,
  endpoint: savedViewsContract.deleteView,
  restored: 'View restored',
  // A view saved meanwhile may have filled the list: the undo is refused, and rolled back, as a save would be.
  afterRestore: async (db, _ctx, id) => {
    const [view] = await db.select({ adminId: savedViews.adminId, route: savedViews.route }).from(savedViews).where(eq(savedViews.id, id))
    if (view === undefined) return
    const held = await db.$count(savedViews, and(eq(savedViews.adminId, view.adminId), eq(savedViews.route, view.route)))
    if (held > MAX_VIEWS_PER_LIST) throw failure(fullMessage, undefined, 409)
  },
})

export const savedViewRoutes = handlers(savedViewsContract, {
  listSavedViews: async (_input, ctx) => {
    const me = ctx.me()
    const rows = await ctx.db.select().from(savedViews).where(eq(savedViews.adminId, me.id)).orderBy(asc(savedViews.route), asc(savedViews.name))
    return {
      status: 'success',
      message: 'Views fetched',
      result: rows.filter((v) => mayOpen(me.restrictions, v.route)).map((v) => ({ _id: v.id, route: v.route, name: v.name, query: v.query })),
    }
  },

  saveView: async ({ route, name, query }, ctx) => {
    const me = ctx.me()
    if (!screenPaths.includes(route) || !mayOpen(me.restrictions, route)) return failure(UNKNOWN_LIST, { route: UNKNOWN_LIST })
    const mine = and(eq(savedViews.adminId, me.id), eq(savedViews.route, route))
    const [taken] = await ctx.db.select({ n: count() }).from(savedViews).where(and(mine, sql`lower(${savedViews.name}) = lower(${name})`))
    if ((taken?.n ?? 0) > 0) return failure(VIEW_NAME_TAKEN, { name: VIEW_NAME_TAKEN })
    const [held] = await ctx.db.select({ n: count() }).from(savedViews).where(mine)
    if ((held?.n ?? 0) >= MAX_VIEWS_PER_LIST) return failure(fullMessage, { name: fullMessage })
    try {
      const [row] = await ctx.db.insert(savedViews).values({ adminId: me.id, route, name, query }).returning({ id: savedViews.id })
      if (row === undefined) throw new Error('saved_views insert returned no row')
      ctx.audit(row.id)
      return { status: 'success', message: 'View saved', id: row.id }
    } catch (error) {
      // Two saves of one name at once: the loser gets the same answer as a taken name.
      if (sqlState(error) === '23505') return failure(VIEW_NAME_TAKEN, { name: VIEW_NAME_TAKEN })
      throw error
    }
  },

  deleteView: ({ id }, ctx) => {
    const me = ctx.me()
    return deleteRecord(ctx, {
      id,
      message: 'View deleted',
      trash: viewTrash,
      // Someone else's view answers as a missing one: ids of other admins' views tell nothing.
      remove: (db) => db.delete(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.adminId, me.id))).returning({ id: savedViews.id }),
    })
  },
})
