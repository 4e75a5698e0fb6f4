/**
 * Brands (contract/brands.ts): the Brand List, Add / Edit / View Brand, and the referral visits.
 *
 * A brand's emails are the leads that arrived through its referral link (`leads.brand_id`);
 * deleting a brand keeps those leads and clears their reference (the foreign key's ON DELETE SET
 * NULL). Brand names are unique whatever their case (the `brands_name_key` index on lower(name)).
 */
import { desc, eq, inArray, sql } from 'drizzle-orm'
import { brandsBulk } from '#contract/bulk'
import * as brands from '#contract/brands'
import type { Brand } from '#contract/brands'
import { handlers } from '../../kit/request/handlers.ts'
import { notFound } from '../../kit/request/answers.ts'
import { deleting } from '../../kit/request/delete.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { visitBudget } from './visits.ts'
import { decodeReferral, encodeReferral } from './referral.ts'
import { uniqueField } from '../../kit/request/unique.ts'
import { restorable } from '../../kit/request/undo.ts'
import { editVersion } from '../../kit/request/edit-version.ts'
import { brands as brandsTable, leads, type BrandRow } from '../../db/schema.ts'

const brandNames = uniqueField({
  column: brandsTable.brandname,
  id: brandsTable.id,
  index: 'brands_name_key',
  field: 'brandname',
  message: 'Brandname already exists',
})

const brandVersions = editVersion({ id: brandsTable.id, version: brandsTable.version })
const brandTrash = restorable({ name: 'brands', table: brandsTable, endpoint: brands.deleteBrand, restored: 'Brand restored successfully' })

const toBrand = (row: BrandRow): Brand => ({ _id: row.id, brandname: row.brandname, type: row.type, version: row.version })

/** Newest first, id as the tie-break, so pages never overlap. */
const newestFirst = [desc(brandsTable.createdAt), desc(brandsTable.id)] as const

const BRAND_SEARCH = [brandsTable.brandname, brandsTable.type]

/** Bulk Delete of brands (contract/bulk.ts): their leads stay, as a single delete leaves them. */
defineBulk({
  calls: brandsBulk,
  list: brands.listbrand,
  table: brandsTable,
  id: brandsTable.id,
  name: brandsTable.brandname,
  order: newestFirst,
  search: BRAND_SEARCH,
  filter: () => undefined,
  actions: {
    delete: { delete: { trash: brandTrash, remove: (db, ids) => db.delete(brandsTable).where(inArray(brandsTable.id, [...ids])).returning({ id: brandsTable.id }) } },
  },
})

/** A referral redirect may be opened by anyone, so the counting call is limited per address. */
const VISITS_PER_MINUTE = 30

export const brandsRoutes = handlers(
  brands,
  {
    addBrand: async ({ brandname, type }, ctx) => {
      const taken = await brandNames.check(ctx.db, brandname)
      if (taken !== null) throw taken
      const [row] = await brandNames.guard(() => ctx.db.insert(brandsTable).values({ brandname, type }).returning({ id: brandsTable.id }))
      ctx.audit(row?.id ?? null)
      return { status: 'success', message: 'Brand added successfully' }
    },

    listbrand: async (query, ctx) => {
      const { rows, count } = await listPage(ctx.db, query, {
        rows: ctx.db.select().from(brandsTable).$dynamic(),
        search: BRAND_SEARCH,
        orderBy: newestFirst,
        sort: { brandname: caseless(brandsTable.brandname), type: brandsTable.type },
      })
      return { status: 'success', message: 'Brands fetched', result: rows.map(toBrand), count }
    },

    listbrandUser: async ({ id, page, limit }, ctx) => {
      const [row] = await ctx.db.select().from(brandsTable).where(eq(brandsTable.id, id)).limit(1)
      if (row === undefined) throw notFound('id')
      // The brand's leads, newest first (the leads_brand_idx index's order).
      const { rows, count } = await listPage(ctx.db, { page, limit, search: '' }, {
        rows: ctx.db.select({ email: leads.email }).from(leads).$dynamic(),
        search: [],
        filter: eq(leads.brandId, id),
        orderBy: [desc(leads.createdAt), desc(leads.id)],
      })
      return {
        status: 'success',
        message: 'Brand fetched',
        result: rows,
        count,
        record: toBrand(row),
        referralCode: encodeReferral(row.id, ctx.config.referralKey),
        visits: row.visits,
      }
    },

    editbrandUser: async ({ _id, brandname, type, version }, ctx) => {
      const taken = await brandNames.check(ctx.db, brandname, _id)
      if (taken !== null) throw taken
      const [row] = await brandNames.guard(() =>
        ctx.db
          .update(brandsTable)
          .set({ brandname, type, version: brandVersions.next })
          .where(brandVersions.matches(_id, version))
          .returning({ id: brandsTable.id }),
      )
      if (row === undefined) throw await brandVersions.missed(ctx.db, _id, '_id')
      ctx.audit(_id)
      return { status: 'success', message: 'Brand updated successfully' }
    },

    // The brand's leads stay: the foreign key clears their brand_id (and undo sets it again), a
    // batch at a time for a brand with many leads.
    deleteBrand: deleting(({ id }) => ({
      id,
      message: 'Brand deleted successfully',
      trash: brandTrash,
      remove: (db) => db.delete(brandsTable).where(eq(brandsTable.id, id)).returning({ id: brandsTable.id }),
    })),

    referralVisit: async ({ code }, ctx) => {
      const id = decodeReferral(code, ctx.config.referralKey)
      // The same hourly budget per address as the redirect: past it the call answers, uncounted.
      const counted =
        id === null || !visitBudget(ctx.config).take(id, ctx.ip)
          ? []
          : await ctx.db
              .update(brandsTable)
              .set({ visits: sql`${brandsTable.visits} + 1` })
              .where(eq(brandsTable.id, id))
              .returning({ id: brandsTable.id })
      return { status: 'success', message: 'Referral visit received', counted: counted.length > 0 }
    },
  },
  { referralVisit: { max: () => VISITS_PER_MINUTE, timeWindow: 60_000 } },
)
