/**
 * Home Page Content (contract/homepage.ts): the landing page's content blocks, newest first, and
 * the landing-page switch, which lives in the one site settings record (site.ts) as
 * `homepage_cms_visible`.
 *
 * Images arrive through the registrar already checked by content and stored under a name the
 * server chose; answers give their served path. A replaced or deleted block's image file is
 * removed once the call has succeeded, never before.
 */
import { desc, eq, inArray } from 'drizzle-orm'
import { homepageBulk } from '#contract/bulk'
import * as homepage from '#contract/homepage'
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers, imageOf } from '../../kit/request/handlers.ts'
import { deleteRecord } from '../../kit/request/delete.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { thumbUrl, uploadUrl } from '../../kit/ground/uploads.ts'
import { restorable } from '../../kit/request/undo.ts'
import { editVersion, recordChanged } from '../../kit/request/edit-version.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { homepageContent, siteSettings, type HomepageContentRow } from '../../db/schema.ts'
import type { Db } from '../../db/index.ts'
import { readSiteRecord } from '../../kit/ground/site-settings.ts'
import { singleRecord } from '../../kit/ground/single-record.ts'

const contentVersions = editVersion({ id: homepageContent.id, version: homepageContent.version })
const contentTrash = restorable({ name: 'homepage_content', table: homepageContent, endpoint: homepage.deleteHomePageCms, restored: 'Homepage content restored successfully' })

const CONTENT_SEARCH = [homepageContent.title, homepageContent.link]
const NEWEST_FIRST = [desc(homepageContent.createdAt), desc(homepageContent.id)] as const

/** Bulk Delete of content blocks (contract/bulk.ts); their images stay until the trash lets them go. */
defineBulk({
  calls: homepageBulk,
  list: homepage.listHomePageCms,
  table: homepageContent,
  id: homepageContent.id,
  name: homepageContent.title,
  order: NEWEST_FIRST,
  search: CONTENT_SEARCH,
  filter: () => undefined,
  actions: {
    delete: { delete: { trash: contentTrash, remove: (db, ids) => db.delete(homepageContent).where(inArray(homepageContent.id, [...ids])).returning({ id: homepageContent.id }) } },
  },
})

const toContent = (row: HomepageContentRow) => ({
  _id: row.id,
  title: row.title,
  link: row.link,
  image: uploadUrl(row.image),
  thumbnail: thumbUrl(row.image),
  version: row.version,
})

/** The single image of an add or edit, if one was sent (the registrar enforces the count and kind). */

/** The site settings record, created empty on first use under the same lock as site.ts's. */
const siteRecord = {
  table: 'site_settings',
  read: readSiteRecord,
  create: async (db: Db) => (await db.insert(siteSettings).values({}).returning())[0],
}

export const SHOWN_MESSAGE = 'Homepage content is now shown on the landing page'
export const HIDDEN_MESSAGE = 'Homepage content is now hidden from the landing page'

export const homepageRoutes = handlers(homepage, {
  addHomePageCms: async ({ title, link }, ctx) => {
    const image = imageOf(ctx)
    if (image === null) throw failure('image is required', { image: 'image is required' })
    const [row] = await ctx.db.insert(homepageContent).values({ title, link, image }).returning({ id: homepageContent.id })
    ctx.audit(row?.id ?? null)
    return { status: 'success', message: 'Homepage content added successfully' }
  },

  listHomePageCms: async (query, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(homepageContent).$dynamic(),
      search: CONTENT_SEARCH,
      orderBy: NEWEST_FIRST,
      sort: { title: caseless(homepageContent.title), link: caseless(homepageContent.link) },
    })
    return { status: 'success', message: 'Homepage content fetched', result: rows.map(toContent), count }
  },

  getHomePageCms: async ({ _id }, ctx) => {
    const [row] = await ctx.db.select().from(homepageContent).where(eq(homepageContent.id, _id)).limit(1)
    if (row === undefined) throw notFound('_id')
    return { status: 'success', message: 'Homepage content fetched', data: toContent(row) }
  },

  editHomePageCms: async ({ _id, title, link, version }, ctx) => {
    const image = imageOf(ctx)
    // The old image is read under the row lock of the same transaction, so two edits racing with
    // new images each remove the file they replaced, and no file still in use is removed.
    const replaced = await ctx.transaction(async (tx) => {
      const [current] = await tx.select({ image: homepageContent.image }).from(homepageContent).where(eq(homepageContent.id, _id)).for('update')
      if (current === undefined) return undefined
      const [updated] = await tx
        .update(homepageContent)
        .set({ title, link, ...(image === null ? {} : { image }), version: contentVersions.next })
        .where(contentVersions.matches(_id, version))
        .returning({ id: homepageContent.id })
      // null: saved by someone else since the form read it, and nothing written.
      return updated === undefined ? null : current.image
    })
    if (replaced === undefined) throw notFound('_id')
    if (replaced === null) throw recordChanged()
    if (image !== null) ctx.removeUploadLater(replaced)
    ctx.audit(_id)
    return { status: 'success', message: 'Homepage content updated successfully' }
  },

  deleteHomePageCms: ({ _id }, ctx) =>
    deleteRecord(ctx, {
      id: _id,
      field: '_id',
      message: 'Homepage content deleted successfully',
      trash: contentTrash,
      remove: (db) => db.delete(homepageContent).where(eq(homepageContent.id, _id)).returning({ id: homepageContent.id }),
    }),

  updateHomepageCmsPreference: async ({ status }, ctx) => {
    const { id } = await singleRecord(ctx.db, siteRecord)
    await ctx.db.update(siteSettings).set({ homepageCmsVisible: status }).where(eq(siteSettings.id, id))
    ctx.audit(id)
    return { status: 'success', message: status ? SHOWN_MESSAGE : HIDDEN_MESSAGE }
  },

  // Read without creating the record: hidden until someone turns it on.
  getHomepageCmsPreference: async (_input, ctx) => {
    const row = await readSiteRecord(ctx.db)
    return { status: 'success', message: 'Homepage preference fetched', result: { status: row?.homepageCmsVisible ?? false } }
  },
})
