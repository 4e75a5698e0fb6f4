/**
 * Games (contract/games.ts): the CMS list of games with up to 5 images and one video each,
 * ordered by preference like the links. Uploads arrive checked and stored (server/kit/ground/uploads.ts);
 * a game keeps file names, answers give their URLs, and lists get each image's thumbnail.
 *
 * An edit keeps the stored images the form names in `keptImages` (all when absent), then adds the
 * new ones; files the edit drops or replaces are removed only once the call has succeeded, so a
 * failed save leaves the game and every file it points at as they were. The edit reads the game's
 * row under its lock (after the list's lock), so two edits take turns and each removes only files
 * the row it replaced held.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { gamesBulk } from '#contract/bulk'
import * as gamesArea from '#contract/games'
import { MAX_GAME_IMAGES } from '#contract/games'
import type { FieldErrors } from '#contract/common'
import type { ApiFailure} from '../../kit/request/answers.ts';
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers, type Ctx } from '../../kit/request/handlers.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { deleteRecord } from '../../kit/request/delete.ts'
import { caseless, containsPattern, listPage } from '../../kit/request/paging.ts'
import { keptPlace, preferenceOrder } from '../../kit/request/preference.ts'
import { storedName, thumbUrl, uploadUrl } from '../../kit/ground/uploads.ts'
import { violatedIndex } from '../../kit/request/unique.ts'
import { restorable, undoableUpdate } from '../../kit/request/undo.ts'
import { editVersion } from '../../kit/request/edit-version.ts'
import type { Db } from '../../db/index.ts'
import { categories, games, type GameRow } from '../../db/schema.ts'

const CATEGORY_FK = 'games_category_id_categories_id_fk'
const CATEGORY_MISSING = 'This category no longer exists'
const TOO_MANY_IMAGES = 'You can upload a maximum of 5 images.'
const IMAGE_REQUIRED = 'image is required'

const order = preferenceOrder({ lock: 'games', id: games.id, preference: games.preference, createdAt: games.createdAt })
const gameVersions = editVersion({ id: games.id, version: games.version })
const gameTrash = restorable({ name: 'games', table: games, order, endpoint: gamesArea.DeleteCms, restored: 'Game restored successfully' })
const frozenMessage = (frozen: boolean): string => (frozen ? 'Game frozen successfully' : 'Game unfrozen successfully')

const done = (message: string) => ({ status: 'success' as const, message })
const refuse = (field: string, message: string): ApiFailure => failure(message, { [field]: message })

/** The game as the contract shows it, with its category's name. */
function toGame(row: GameRow, categoryName: string): gamesArea.Game {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    categoryName: { _id: row.categoryId, categoryName },
    operatingsystem: row.operatingsystem,
    liveLink: row.liveLink,
    image: row.images.map(uploadUrl),
    thumbnails: row.images.map(thumbUrl),
    video: row.video === '' ? '' : uploadUrl(row.video),
    preference: row.preference,
    isGameBackend: row.isGameBackend,
    freeze: row.freeze,
    version: row.version,
  }
}

/** Category names by id for the given rows (one query, not one per row). */
async function categoryNames(db: Db, rows: readonly GameRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.categoryId))]
  if (ids.length === 0) return new Map()
  const found = await db.select({ id: categories.id, name: categories.categoryName }).from(categories).where(inArray(categories.id, ids))
  return new Map(found.map((c) => [c.id, c.name]))
}

const categoryExists = async (db: Db, id: string): Promise<boolean> =>
  (await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).limit(1)).length > 0

/** A write that names a category deleted meanwhile: the field error rather than a 500. */
async function guardCategory<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (violatedIndex(error) === CATEGORY_FK) throw refuse('categoryName', CATEGORY_MISSING)
    throw error
  }
}

const uploaded = (ctx: Ctx, field: string): string[] => (ctx.files[field] ?? []).map((f) => f.name)

/** The stored names an edit keeps out of `current`, or the field errors when it names files the game does not hold. */
function keptFiles(urls: readonly string[] | undefined, current: readonly string[], field: string): string[] | FieldErrors {
  if (urls === undefined) return [...current]
  const names = urls.map(storedName)
  const kept: string[] = []
  for (const name of names) {
    if (name === null || !current.includes(name)) return { [field]: 'Incorrect format' }
    if (!kept.includes(name)) kept.push(name)
  }
  return kept
}

const listFilter = (category: string, operatingsystem: string): SQL | undefined =>
  and(category === '' ? undefined : eq(games.categoryId, category), operatingsystem === '' ? undefined : sql`${games.operatingsystem} = ${operatingsystem}`)

/** The title's trigram index holds exactly this expression. */
const titleSearch = (term: string): SQL => sql`lower(${games.title}) like ${containsPattern(term)}`

/** Bulk actions on games (contract/bulk.ts): the list's own search and filters choose the rows. */
defineBulk({
  calls: gamesBulk,
  list: gamesArea.listCms,
  table: games,
  id: games.id,
  name: games.title,
  order: order.orderBy,
  search: titleSearch,
  filter: ({ category, operatingsystem }) => listFilter(category, operatingsystem),
  actions: {
    freeze: { set: { column: games.freeze, to: true } },
    unfreeze: { set: { column: games.freeze, to: false } },
    delete: { delete: { trash: gameTrash, remove: (db, ids) => db.delete(games).where(inArray(games.id, [...ids])).returning({ id: games.id }) } },
  },
})

export const gamesRoutes = handlers(gamesArea, {
  addcms: async ({ title, description, categoryName, operatingsystem, liveLink, isGameBackend }, ctx) => {
    const images = uploaded(ctx, 'image')
    if (images.length === 0) throw refuse('image', IMAGE_REQUIRED)
    if (!(await categoryExists(ctx.db, categoryName))) throw refuse('categoryName', CATEGORY_MISSING)
    const video = uploaded(ctx, 'video')[0] ?? ''
    const added = await guardCategory(() =>
      order.add(ctx.db, (tx, last) =>
        tx
          .insert(games)
          .values({ title, description, categoryId: categoryName, operatingsystem, liveLink, images, video, isGameBackend, preference: last })
          .returning({ id: games.id }),
      ),
    )
    ctx.audit(added?.id ?? null)
    return done('Game added successfully')
  },

  listCms: async ({ category, operatingsystem, ...query }, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(games).$dynamic(),
      search: titleSearch,
      filter: listFilter(category, operatingsystem),
      orderBy: order.orderBy,
      // The category's name is read from its row: a few hundred games sort by it without an index.
      sort: { title: caseless(games.title), categoryName: sql`(select lower(${categories.categoryName}) from ${categories} where ${categories.id} = ${games.categoryId})` },
    })
    const names = await categoryNames(ctx.db, rows)
    return { ...done('Games fetched'), result: rows.map((row) => toGame(row, names.get(row.categoryId) ?? '')), count }
  },

  getCms: async ({ _id }, ctx) => {
    const [row] = await ctx.db.select().from(games).where(eq(games.id, _id)).limit(1)
    if (row === undefined) throw notFound('_id')
    const names = await categoryNames(ctx.db, [row])
    return { ...done('Game fetched'), data: toGame(row, names.get(row.categoryId) ?? '') }
  },

  Editcms: async (input, ctx) => {
    // The files the edit drops are worked out from the row as it is read here, so the row is read
    // under its lock, held by the call's transaction until it commits: a second edit waits and
    // then reads what the first saved (a plain read would let both start from the same files, and
    // each then remove a file the other keeps, or leave the other's new upload unreferenced). The
    // list's lock is taken before the row's, in the order the preference writes take them.
    await order.lock(ctx.db)
    const [current] = await ctx.db.select().from(games).where(eq(games.id, input._id)).for('update')
    if (current === undefined) throw notFound('_id')
    const keptImages = keptFiles(input.keptImages, current.images, 'keptImages')
    if (!Array.isArray(keptImages)) throw failure('Incorrect format', keptImages)
    const images = [...keptImages, ...uploaded(ctx, 'image')]
    if (images.length > MAX_GAME_IMAGES) throw refuse('image', TOO_MANY_IMAGES)
    if (images.length === 0) throw refuse('image', IMAGE_REQUIRED)
    const keptVideo = keptFiles(input.keptVideo, current.video === '' ? [] : [current.video], 'keptVideo')
    if (!Array.isArray(keptVideo)) throw failure('Incorrect format', keptVideo)
    const video = uploaded(ctx, 'video')[0] ?? keptVideo[0] ?? ''
    const categoryId = input.categoryName._id
    if (!(await categoryExists(ctx.db, categoryId))) throw refuse('categoryName', CATEGORY_MISSING)

    const placed = await guardCategory(() =>
      order.edit(ctx.db, input._id, input.preference, (tx) =>
        tx
          .update(games)
          .set({
            title: input.title,
            description: input.description,
            categoryId,
            operatingsystem: input.operatingsystem,
            liveLink: input.liveLink,
            isGameBackend: input.isGameBackend,
            images,
            video,
            version: gameVersions.next,
          })
          .where(gameVersions.matches(input._id, input.version))
          .returning({ id: games.id }),
      ),
    )
    // Deleted, or saved by someone else, since it was read: nothing was written.
    if (placed === undefined) throw await gameVersions.missed(ctx.db, input._id, '_id')
    for (const name of [...current.images, current.video]) if (name !== '' && name !== video && !images.includes(name)) ctx.removeUploadLater(name)
    ctx.audit(input._id)
    const updated = 'Game updated successfully'
    return done(placed.ignored ? keptPlace(updated, input.preference, placed) : updated)
  },

  DeleteCms: ({ id }, ctx) =>
    deleteRecord(ctx, {
      id,
      message: 'Game deleted successfully',
      trash: gameTrash,
      remove: (db) => db.delete(games).where(eq(games.id, id)).returning({ id: games.id }),
    }),

  FreezeCms: async ({ id }, ctx) => {
    const [row] = await ctx.db
      .update(games)
      .set({ freeze: sql`not ${games.freeze}` })
      .where(eq(games.id, id))
      .returning({ freeze: games.freeze })
    if (row === undefined) throw notFound()
    ctx.audit(id)
    // Undo writes the state back (not a flip: a freeze by someone else meanwhile is not reversed twice).
    const undo = await undoableUpdate(ctx, { kind: gameTrash, id, endpoint: gamesArea.FreezeCms, column: games.freeze, before: !row.freeze, after: row.freeze, message: frozenMessage(!row.freeze) })
    return { ...done(frozenMessage(row.freeze)), freeze: row.freeze, undo }
  },
})
