/**
 * Categories (contract/catalog.ts). Images arrive through the registrar already checked by
 * content and stored under a server-chosen name; answers give their served path (/uploads/<name>).
 * A replaced or deleted category's image file is removed once the change has succeeded.
 */
import { asc, count, eq, inArray, sql } from 'drizzle-orm'
import { categoriesBulk } from '#contract/bulk'
import * as catalog from '#contract/catalog'
import { failure, notFound, type ApiFailure } from '../../kit/request/answers.ts'
import { handlers, imageOf } from '../../kit/request/handlers.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { deleteRecord } from '../../kit/request/delete.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { keptPlace, preferenceOrder } from '../../kit/request/preference.ts'
import { uniqueField, violatedIndex } from '../../kit/request/unique.ts'
import { restorable } from '../../kit/request/undo.ts'
import { editVersion } from '../../kit/request/edit-version.ts'
import { thumbUrl, uploadUrl } from '../../kit/ground/uploads.ts'
import type { Db } from '../../db/index.ts'
import { categories, games, type CategoryRow } from '../../db/schema.ts'

export const CATEGORY_EXISTS = 'categoryName already exists'

const categoryNames = uniqueField({
  column: categories.categoryName,
  id: categories.id,
  index: 'categories_name_key',
  field: 'categoryName',
  message: CATEGORY_EXISTS,
})

/** The display order: a new category goes last; an edit's preference moves it and renumbers the rest. */
const categoryOrder = preferenceOrder({ lock: 'categories', id: categories.id, preference: categories.preference, createdAt: categories.createdAt })

const categoryVersions = editVersion({ id: categories.id, version: categories.version })
const categoryTrash = restorable({ name: 'categories', table: categories, order: categoryOrder, endpoint: catalog.deleteCategory, restored: 'Category restored successfully' })

const toCategory = (row: CategoryRow) => ({
  _id: row.id,
  categoryName: row.categoryName,
  image: uploadUrl(row.image),
  thumbnail: thumbUrl(row.image),
  preference: row.preference,
  version: row.version,
})

/** The single image of a category call, if one was sent (the registrar enforces max 1 and required). */

const GAMES_CATEGORY_FK = 'games_category_id_categories_id_fk'

/** Games keep their category (the foreign key restricts): a category in use is refused, saying how many games use it. */
const categoryInUse = (n: number): ApiFailure => {
  const message = `This category is used by ${n} ${n === 1 ? 'game' : 'games'}: move or delete ${n === 1 ? 'it' : 'them'} first`
  throw failure(message, { id: message }, 409)
}

async function gamesUsing(db: Db, id: string): Promise<ApiFailure | null> {
  const [row] = await db.select({ n: count() }).from(games).where(eq(games.categoryId, id))
  const n = row?.n ?? 0
  return n > 0 ? categoryInUse(n) : null
}

/** Bulk Delete of categories (contract/bulk.ts): those games use are skipped as in use. */
defineBulk({
  calls: categoriesBulk,
  list: catalog.listCategory,
  table: categories,
  id: categories.id,
  name: categories.categoryName,
  order: categoryOrder.orderBy,
  search: [categories.categoryName],
  filter: () => undefined,
  actions: {
    delete: {
      delete: { trash: categoryTrash, remove: (db, ids) => db.delete(categories).where(inArray(categories.id, [...ids])).returning({ id: categories.id }) },
      inUse: sql`exists (select 1 from ${games} where ${games.categoryId} = ${categories.id})`,
    },
  },
})

export const catalogRoutes = handlers(catalog, {
  addcategory: async ({ categoryName }, ctx) => {
    const image = imageOf(ctx)
    if (image === null) throw failure('image is required', { image: 'image is required' })
    const taken = await categoryNames.check(ctx.db, categoryName)
    if (taken !== null) throw taken
    const added = await categoryNames.guard(() =>
      categoryOrder.add(ctx.db, (tx, last) => tx.insert(categories).values({ categoryName, image, preference: last }).returning({ id: categories.id })),
    )
    ctx.audit(added?.id ?? null)
    return { status: 'success', message: 'Category added successfully' }
  },

  listCategory: async (query, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(categories).$dynamic(),
      search: [categories.categoryName],
      orderBy: categoryOrder.orderBy,
      sort: { categoryName: caseless(categories.categoryName) },
    })
    return { status: 'success', message: 'Categories fetched', result: rows.map(toCategory), count }
  },

  getCategory: async ({ id }, ctx) => {
    const [row] = await ctx.db.select().from(categories).where(eq(categories.id, id)).limit(1)
    if (row === undefined) throw notFound()
    return { status: 'success', message: 'Category fetched', data: toCategory(row) }
  },

  editCategoryData: async ({ id, categoryName, preference, version }, ctx) => {
    const [current] = await ctx.db.select().from(categories).where(eq(categories.id, id)).limit(1)
    if (current === undefined) throw notFound()
    const taken = await categoryNames.check(ctx.db, categoryName, id)
    if (taken !== null) throw taken
    const image = imageOf(ctx)
    const placed = await categoryNames.guard(() =>
      categoryOrder.edit(ctx.db, id, preference, (tx) =>
        tx
          .update(categories)
          .set({ categoryName, ...(image === null ? {} : { image }), version: categoryVersions.next })
          .where(categoryVersions.matches(id, version))
          .returning({ id: categories.id }),
      ),
    )
    // Deleted, or saved by someone else, since it was read: nothing was written.
    if (placed === undefined) throw await categoryVersions.missed(ctx.db, id)
    if (image !== null) ctx.removeUploadLater(current.image)
    ctx.audit(id)
    return { status: 'success', message: placed.ignored ? keptPlace('Category updated successfully', preference, placed) : 'Category updated successfully' }
  },

  deleteCategory: async ({ id }, ctx) => {
    const inUse = await gamesUsing(ctx.db, id)
    if (inUse !== null) throw inUse
    try {
      return await deleteRecord(ctx, {
        id,
        message: 'Category deleted successfully',
        trash: categoryTrash,
        remove: (db) => db.delete(categories).where(eq(categories.id, id)).returning({ id: categories.id }),
      })
    } catch (error) {
      // A game added between the check and the delete: the foreign key refuses, say so the same way.
      if (violatedIndex(error) === GAMES_CATEGORY_FK) throw (await gamesUsing(ctx.db, id)) ?? categoryInUse(1)
      throw error
    }
  },

  categoryDropdown: async (_input, ctx) => {
    const rows = await ctx.db
      .select({ _id: categories.id, categoryName: categories.categoryName })
      .from(categories)
      .orderBy(asc(categories.preference), asc(categories.categoryName))
    return { status: 'success', message: 'Categories fetched', result: { data: rows } }
  },
})
