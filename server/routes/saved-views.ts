/**
 * Saved views (contract/saved-views.ts): each admin reads and changes only their own. A view is for
 * a screen the admin may open now; views of screens they lost are kept but not listed.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm'
import * as savedViewsContract from '#contract/saved-views'
import { MAX_VIEWS_PER_LIST, VIEW_NAME_TAKEN } from '#contract/saved-views'
import { mayOpen, screenPaths } from '#contract/routes'
import { failure, handlers, notFound } from '../kit/api.ts'
import { sqlState } from '../db/index.ts'
import { savedViews } from '../db/schema.ts'

const UNKNOWN_LIST = 'This list cannot be saved as a view'

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
    if ((held?.n ?? 0) >= MAX_VIEWS_PER_LIST) {
      const full = `You can keep at most ${MAX_VIEWS_PER_LIST} views per list; delete one first`
      return failure(full, { name: full })
    }
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

  deleteView: async ({ id }, ctx) => {
    const me = ctx.me()
    const removed = await ctx.db.delete(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.adminId, me.id))).returning({ id: savedViews.id })
    // Someone else's view answers as a missing one: ids of other admins' views tell nothing.
    if (removed.length === 0) throw notFound()
    ctx.audit(id)
    return { status: 'success', message: 'View deleted' }
  },
})
