/**
 * Categories (contract/catalog.ts). Images arrive through the registrar already checked by
 * content and stored under a server-chosen name; answers give their served path (/uploads/<name>).
 * A replaced or deleted category's image file is removed once the change has succeeded.
 */
import { and, asc, count, desc, eq, ilike, ne, sql } from 'drizzle-orm'
import * as catalog from '#contract/catalog'
import { failure, handlers, notFound, type Ctx } from '../kit/api.ts'
import { sqlState, type Db } from '../db/index.ts'
import { categories, type CategoryRow } from '../db/schema.ts'
import { containsPattern, offsetOf } from '../kit/paging.ts'
import { uploadUrl } from '../kit/uploads.ts'

export const CATEGORY_EXISTS = 'categoryName already exists'
const duplicate = () => failure(CATEGORY_EXISTS, { categoryName: CATEGORY_EXISTS })

const toCategory = (row: CategoryRow) => ({ _id: row.id, categoryName: row.categoryName, image: uploadUrl(row.image), preference: row.preference })

async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const sameName = sql`lower(${categories.categoryName}) = lower(${name})`
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(exceptId === undefined ? sameName : and(sameName, ne(categories.id, exceptId)))
    .limit(1)
  return row !== undefined
}

/** The single image of a category call, if one was sent (the registrar enforces max 1 and required). */
const imageOf = (ctx: Ctx): string | null => ctx.files['image']?.[0]?.name ?? null

/** Runs a write; a unique-index violation (two saves racing on one name) is the same duplicate answer. */
async function unlessDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (sqlState(error) === '23505') throw duplicate()
    throw error
  }
}

export const catalogRoutes = handlers(catalog, {
  addcategory: async ({ categoryName }, ctx) => {
    const image = imageOf(ctx)
    if (image === null) return failure('image is required', { image: 'image is required' })
    if (await nameTaken(ctx.db, categoryName)) return duplicate()
    const [row] = await unlessDuplicate(() =>
      ctx.db
        .insert(categories)
        .values({
          categoryName,
          image,
          // New categories go last in the display order.
          preference: sql`(select coalesce(max(${categories.preference}), 0) + 1 from ${categories})`,
        })
        .returning({ id: categories.id }),
    )
    ctx.audit(row?.id ?? null)
    return { status: 'success', message: 'Category added successfully' }
  },

  listCategory: async ({ page, limit, search }, ctx) => {
    const where = search === '' ? undefined : ilike(categories.categoryName, containsPattern(search))
    const [rows, total] = await Promise.all([
      ctx.db
        .select()
        .from(categories)
        .where(where)
        .orderBy(asc(categories.preference), desc(categories.createdAt))
        .limit(limit)
        .offset(offsetOf(page, limit)),
      ctx.db.select({ n: count() }).from(categories).where(where),
    ])
    return { status: 'success', message: 'Categories fetched', result: rows.map(toCategory), count: total[0]?.n ?? 0 }
  },

  editCategoryData: async ({ id, categoryName, preference }, ctx) => {
    const [current] = await ctx.db.select().from(categories).where(eq(categories.id, id)).limit(1)
    if (current === undefined) return notFound()
    if (await nameTaken(ctx.db, categoryName, id)) return duplicate()
    const image = imageOf(ctx)
    await unlessDuplicate(() =>
      ctx.db
        .update(categories)
        .set({ categoryName, preference, ...(image === null ? {} : { image }) })
        .where(eq(categories.id, id)),
    )
    if (image !== null) ctx.removeUploadLater(current.image)
    ctx.audit(id)
    return { status: 'success', message: 'Category updated successfully' }
  },

  deleteCategory: async ({ id }, ctx) => {
    const [removed] = await ctx.db.delete(categories).where(eq(categories.id, id)).returning({ image: categories.image })
    if (removed === undefined) return notFound()
    ctx.removeUploadLater(removed.image)
    ctx.audit(id)
    return { status: 'success', message: 'Category deleted successfully' }
  },

  categoryDropdown: async (_input, ctx) => {
    const rows = await ctx.db
      .select({ _id: categories.id, categoryName: categories.categoryName })
      .from(categories)
      .orderBy(asc(categories.preference), asc(categories.categoryName))
    return { status: 'success', message: 'Categories fetched', result: { data: rows } }
  },
})
