/**
 * Buy links, swap-out (sell) links and swap-in (bridge) links (contract/links.ts): one definition,
 * instantiated once per kind of the one `links` table. Each kind is its own list ordered by
 * preference (server/kit/request/preference.ts), with its own lock, so moving a buy link never renumbers
 * a swap-in link.
 *
 * The spellings of requirements R7.5 differ per kind and per call: the add payload carries `buylink` /
 * `sellink` / `bridgelink`, records and edits `buyLink` / `selLink` / `bridgeLink`.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { bridgeLinksBulk, buyLinksBulk, sellLinksBulk } from '#contract/bulk'
import * as links from '#contract/links'
import type { PageQuery } from '#contract/common'
import { handlers, type Ctx } from '../../kit/request/handlers.ts'
import { notFound } from '../../kit/request/answers.ts'
import { deleteRecord } from '../../kit/request/delete.ts'
import { caseless, listPage, type SortInput, type SortKey } from '../../kit/request/paging.ts'
import { keptPlace, preferenceOrder } from '../../kit/request/preference.ts'
import { restorable } from '../../kit/request/undo.ts'
import { editVersion } from '../../kit/request/edit-version.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { links as linksTable, type LinkRow } from '../../db/schema.ts'

type Kind = LinkRow['kind']

/** What the handlers take of a kind of the contract (contract/links.ts linkKind). */
interface LinkKind<A extends string, F extends string> {
  /** The add payload's field. */
  addField: A
  /** The record's and the edit payload's field. */
  recordField: F
  /** How messages name one link of this kind. */
  noun: string
  /** Its delete call (undo checks its access rule). */
  remove: typeof links.DeleteBuyLink | typeof links.DeleteSellLink | typeof links.DeleteBridgeLink
  /** Its list call: a bulk Delete's "every row matching" reads its search as the list does. */
  list: typeof links.ListBuyLink | typeof links.ListSelLink | typeof links.ListBridgeLink
}

/** The record as the contract shows it: `{ _id, <field>, preference, version }`. */
type LinkRecord<F extends string> = { _id: string; preference: number; version: number } & Record<F, string>

const recordOf = <F extends string>(field: F, row: LinkRow): LinkRecord<F> => ({ _id: row.id, preference: row.preference, version: row.version, ...named(field, row.url) })

/** `{ [field]: value }`, typed by the field's literal name. */
function named<F extends string>(field: F, value: string): Record<F, string> {
  const out: Record<string, string> = { [field]: value }
  if (!holds(out, field)) throw new Error(`no ${field}`)
  return out
}
const holds = <F extends string>(v: Record<string, string>, field: F): v is Record<F, string> => typeof v[field] === 'string'

/** The five calls of one kind, kept in the table's rows of `kind`. */
function linkCalls<A extends string, F extends string>(kind: Kind, { addField, recordField: field, noun, remove: deleteCall, list: listCall }: LinkKind<A, F>, bulk: typeof buyLinksBulk | typeof sellLinksBulk | typeof bridgeLinksBulk) {
  const ofKind = eq(linksTable.kind, kind)
  const byId = (id: string) => and(eq(linksTable.id, id), ofKind)
  const order = preferenceOrder({ lock: `links:${kind}`, id: linksTable.id, preference: linksTable.preference, createdAt: linksTable.createdAt, scope: ofKind })
  const versions = editVersion({ id: linksTable.id, version: linksTable.version, scope: ofKind })
  const kept = restorable({ name: `links:${kind}`, table: linksTable, order, endpoint: deleteCall, restored: `${noun} restored successfully` })
  const done = (message: string) => ({ status: 'success' as const, message })
  // Bulk Delete (contract/bulk.ts): only this kind's links, whatever ids are sent.
  defineBulk({
    calls: bulk,
    list: listCall,
    table: linksTable,
    id: linksTable.id,
    name: linksTable.url,
    order: order.orderBy,
    search: [linksTable.url],
    scope: ofKind,
    filter: () => undefined,
    actions: { delete: { delete: { trash: kept, remove: (db, ids) => db.delete(linksTable).where(and(inArray(linksTable.id, [...ids]), ofKind)).returning({ id: linksTable.id }) } } },
  })

  return {
    add: async (input: Record<A, string> & { preference?: number | undefined }, ctx: Ctx) => {
      const added = await order.add(
        ctx.db,
        (tx, last) => tx.insert(linksTable).values({ kind, url: input[addField], preference: last }).returning({ id: linksTable.id }),
        input.preference,
      )
      ctx.audit(added?.id ?? null)
      return done(`${noun} added successfully`)
    },

    list: async (query: { page: number; limit: number; search: string } & SortInput<F>, ctx: Ctx) => {
      // The kind's link column (buyLink, selLink, bridgeLink) sorts by the url every kind keeps.
      const sort: Record<string, SortKey> = { [field]: caseless(linksTable.url) }
      const asked: PageQuery & SortInput<string> = query
      const { rows, count } = await listPage(ctx.db, asked, {
        rows: ctx.db.select().from(linksTable).$dynamic(),
        search: [linksTable.url],
        filter: ofKind,
        orderBy: order.orderBy,
        sort,
      })
      return { ...done(`${noun}s fetched`), result: rows.map((row) => recordOf(field, row)), count }
    },

    get: async ({ _id }: { _id: string }, ctx: Ctx) => {
      const [row] = await ctx.db.select().from(linksTable).where(byId(_id)).limit(1)
      if (row === undefined) throw notFound('_id')
      return { ...done(`${noun} fetched`), data: recordOf(field, row) }
    },

    edit: async (input: Record<F, string> & { _id: string; preference: number; version?: number | undefined }, ctx: Ctx) => {
      const placed = await order.edit(ctx.db, input._id, input.preference, (tx) =>
        tx
          .update(linksTable)
          .set({ url: input[field], version: versions.next })
          .where(versions.matches(input._id, input.version))
          .returning({ id: linksTable.id }),
      )
      if (placed === undefined) throw await versions.missed(ctx.db, input._id, '_id')
      ctx.audit(input._id)
      const updated = `${noun} updated successfully`
      return done(placed.ignored ? keptPlace(updated, input.preference, placed) : updated)
    },

    remove: ({ id }: { id: string }, ctx: Ctx) =>
      deleteRecord(ctx, {
        id,
        message: `${noun} deleted successfully`,
        trash: kept,
        remove: (db) => db.delete(linksTable).where(byId(id)).returning({ id: linksTable.id }),
      }),
  }
}

const buy = linkCalls('buy', links.buyLinks, buyLinksBulk)
const sell = linkCalls('sell', links.sellLinks, sellLinksBulk)
const bridge = linkCalls('bridge', links.bridgeLinks, bridgeLinksBulk)

export const linksRoutes = handlers(links, {
  addbuyLink: buy.add,
  getbuyLink: buy.get,
  ListBuyLink: buy.list,
  editBuylink: buy.edit,
  DeleteBuyLink: buy.remove,

  addsellLink: sell.add,
  getsellLink: sell.get,
  ListSelLink: sell.list,
  editSellink: sell.edit,
  DeleteSellLink: sell.remove,

  addBridgeLink: bridge.add,
  getBridgeLink: bridge.get,
  ListBridgeLink: bridge.list,
  editBridgeink: bridge.edit,
  DeleteBridgeLink: bridge.remove,
})
