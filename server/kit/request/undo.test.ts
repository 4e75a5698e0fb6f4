import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { MAX_VIEWS_PER_LIST } from '#contract/saved-views'
import { UNDO_CHANGED, UNDO_EXPIRED, UNDO_NOT_YOURS, UNDO_TAKEN } from '#contract/undo'
import {
  admins,
  auditLog,
  brands,
  categories,
  games,
  leads,
  leadNotifications,
  links,
  promotionDeliveries,
  promotionRecipients,
  promotions,
  restrictedCountries,
  savedViews,
  siteSettings,
  socialMedia,
  trash,
  trashRows,
  type AdminRow,
} from '../../db/schema.ts'
import { encodePng } from '../../db/png.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { PURGE_JOB, TRASH_BATCH, purgeExpired } from './undo.ts'

/**
 * Rows enough for several batches on either engine (three of PostgreSQL's, twelve of PGlite's) and
 * sixty of the purge's: what batching must get right shows at this size as at any larger one.
 */
const MANY = 3 * TRASH_BATCH.pg

let t: TestApp
let root: Record<string, string>
let other: AdminRow
let arcade: string

const png = (name = 'shot.png'): UploadFile => ({ field: 'image', name, type: 'image/png', content: encodePng(8, 8, (x, y) => [x * 20, y * 20, 120]) })
const mp4: UploadFile = { field: 'video', name: 'clip.mp4', type: 'video/mp4', content: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12), Buffer.from([0, 0, 0x08, 0x08]), Buffer.from('mdat'), Buffer.alloc(2048, 7)]) }

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = root) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const get = (path: string, query: Record<string, string>, headers: Record<string, string> = root) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, query, headers })

async function addGame(title: string, files: UploadFile[] = [png()]): Promise<string> {
  const form = await multipart({ title, description: `About ${title}`, categoryName: arcade, operatingsystem: 'Android', liveLink: 'https://play.example/game', isGameBackend: 'false' }, files)
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/addcms', payload: form.payload, headers: { ...root, ...form.headers } })
  expect(bodyOf(res)).toMatchObject({ status: 'success' })
  const [row] = await t.handle.db.select({ id: games.id }).from(games).where(eq(games.title, title))
  if (row === undefined) throw new Error('not added')
  return row.id
}

const gameTitles = async (headers: Record<string, string> = root) =>
  listOf(bodyOf(await get('/listCms', { page: '1', limit: '50' }, headers)), 'result').map((g) => `${String(g['title'])}:${String(g['preference'])}`)

/** The ticket of a successful delete or freeze. */
function ticketOf(body: Record<string, unknown>): string {
  const undo = body['undo']
  if (typeof undo !== 'object' || undo === null || !('token' in undo) || typeof undo.token !== 'string') throw new Error(`no undo ticket in ${JSON.stringify(body)}`)
  return undo.token
}

/** Moves an entry past its window, as time would. */
const expire = (token: string) => t.handle.db.update(trash).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(trash.id, token))
const uploaded = (name: string) => existsSync(join(t.config.uploadsDir, name))

beforeAll(async () => {
  t = await makeTestApp()
  root = await t.auth(t.superadmin)
  other = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
  const [row] = await t.handle.db.insert(categories).values({ categoryName: 'Arcade', image: 'a.png', preference: 1 }).returning({ id: categories.id })
  if (row === undefined) throw new Error('no category')
  arcade = row.id
})
afterAll(async () => {
  await t.close()
})

describe('delete, then undo', () => {
  it('restores a deleted game exactly, at its place, with its files kept meanwhile', async () => {
    await addGame('Alpha')
    const id = await addGame('Beta', [png('a.png'), png('b.png'), mp4])
    await addGame('Gamma')
    await post('/FreezeCms', { id })
    const [before] = await t.handle.db.select().from(games).where(eq(games.id, id))
    if (before === undefined) throw new Error('no game')
    const files = [...before.images, before.video]

    const deleted = await post('/DeleteCms', { id })
    const body = bodyOf(deleted)
    expect(body).toMatchObject({ status: 'success', message: 'Game deleted successfully', undo: { seconds: 10 } })
    // Gone for everyone (another admin too), the order closed, the files still there for an undo.
    expect(await gameTitles()).toEqual(['Alpha:1', 'Gamma:2'])
    expect(await gameTitles(await t.auth(other))).toEqual(['Alpha:1', 'Gamma:2'])
    expect((await get('/getCms', { _id: id })).statusCode).toBe(404)
    for (const name of files) expect(uploaded(name)).toBe(true)

    const undone = await post('/undo', { token: ticketOf(body) })
    expect(bodyOf(undone)).toEqual({ status: 'success', message: 'Game restored successfully' })
    const [after] = await t.handle.db.select().from(games).where(eq(games.id, id))
    expect(after).toEqual(before)
    expect(await gameTitles()).toEqual(['Alpha:1', 'Beta:2', 'Gamma:3'])
    expect(await t.handle.db.$count(trash, eq(trash.id, ticketOf(body)))).toBe(0)
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.action, '/undo'), eq(auditLog.recordId, id)))).toBe(1)
    // A second undo of the same ticket finds nothing to undo.
    const again = await post('/undo', { token: ticketOf(body) })
    expect(again.statusCode).toBe(410)
    expect(bodyOf(again)['message']).toBe(UNDO_EXPIRED)
    // The purge later finds no entry, so the restored game's files stay.
    await purgeExpired(t.app.services)
    for (const name of files) expect(uploaded(name)).toBe(true)
  })

  it('puts a link back at its old place while later links moved up', async () => {
    const ids: string[] = []
    for (const n of [1, 2, 3, 4]) {
      await post('/addbuyLink', { buylink: `https://buy.example.com/${n}` })
      const [row] = await t.handle.db.select({ id: links.id }).from(links).where(eq(links.url, `https://buy.example.com/${n}`))
      ids.push(row?.id ?? '')
    }
    const token = ticketOf(bodyOf(await post('/DeleteBuyLink', { id: ids[1] })))
    await post('/addbuyLink', { buylink: 'https://buy.example.com/5' })
    expect(bodyOf(await post('/undo', { token }))).toEqual({ status: 'success', message: 'Buy link restored successfully' })
    const order = await t.handle.db.select({ url: links.url, preference: links.preference }).from(links).where(eq(links.kind, 'buy')).orderBy(asc(links.preference))
    expect(order.map((l) => `${l.url.slice(-1)}:${l.preference}`)).toEqual(['1:1', '2:2', '3:3', '4:4', '5:5'])
  })

  it("sets the brand of the brand's leads again", async () => {
    const [brand] = await t.handle.db.insert(brands).values({ brandname: 'Undo brand', type: 'ipfs' }).returning()
    if (brand === undefined) throw new Error('no brand')
    await t.handle.db.insert(leads).values([{ email: 'one@example.com', brandId: brand.id }, { email: 'two@example.com', brandId: brand.id }, { email: 'none@example.com' }])
    const token = ticketOf(bodyOf(await post('/deleteBrand', { id: brand.id })))
    expect(await t.handle.db.$count(leads, eq(leads.brandId, brand.id))).toBe(0)
    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Brand restored successfully' })
    expect(await t.handle.db.select().from(brands).where(eq(brands.id, brand.id))).toEqual([brand])
    expect((await t.handle.db.select({ email: leads.email }).from(leads).where(eq(leads.brandId, brand.id)).orderBy(asc(leads.email))).map((l) => l.email)).toEqual(['one@example.com', 'two@example.com'])
  })

  it('brings a promotion back with its recipients, deliveries and notifications', async () => {
    const [lead] = await t.handle.db.insert(leads).values({ email: 'reader@example.com' }).returning({ id: leads.id })
    if (lead === undefined) throw new Error('no lead')
    const [promotion] = await t.handle.db
      .insert(promotions)
      .values({ title: 'Sale', content: 'Half price', recipientCount: 1, total: 1, sent: 1, status: 'done', lastSentAt: new Date('2030-01-02T03:04:05.678Z') })
      .returning()
    if (promotion === undefined) throw new Error('no promotion')
    await t.handle.db.insert(promotionRecipients).values({ promotionId: promotion.id, leadId: lead.id, email: 'reader@example.com' })
    await t.handle.db.insert(promotionDeliveries).values({ promotionId: promotion.id, leadId: lead.id, round: 1, status: 'sent', sentAt: new Date() })
    await t.handle.db.insert(leadNotifications).values({ promotionId: promotion.id, leadId: lead.id, round: 1, title: 'Sale', content: 'Half price' })
    const snapshot = async () => ({
      recipients: await t.handle.db.select().from(promotionRecipients).where(eq(promotionRecipients.promotionId, promotion.id)),
      deliveries: await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, promotion.id)),
      notifications: await t.handle.db.select().from(leadNotifications).where(eq(leadNotifications.promotionId, promotion.id)),
    })
    const before = await snapshot()
    const token = ticketOf(bodyOf(await post('/DeletePromotion', { id: promotion.id })))
    expect(await snapshot()).toEqual({ recipients: [], deliveries: [], notifications: [] })
    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Promotion restored successfully' })
    expect(await t.handle.db.select().from(promotions).where(eq(promotions.id, promotion.id))).toEqual([promotion])
    expect(await snapshot()).toEqual(before)
  })

  /** The largest single value the trash holds for an entry (its own row or one of its kept rows), in bytes. */
  const largestKept = async (token: string): Promise<number> => {
    const [sizes] = z
      .object({ rows: z.array(z.object({ entry: z.number(), row: z.number().nullable() })) })
      .parse(
        await t.handle.db.execute(sql`select (select pg_column_size(${trash.rows}) from ${trash} where ${trash.id} = ${token}) as entry,
          (select max(pg_column_size(${trashRows.row})) from ${trashRows} where ${trashRows.entry} = ${token}) as row`),
      ).rows
    return Math.max(sizes?.entry ?? 0, sizes?.row ?? 0)
  }

  it(`keeps a promotion with ${MANY.toLocaleString('en-US')} deliveries one row at a time, and brings every one back exactly`, async () => {
    const [promotion] = await t.handle.db.insert(promotions).values({ title: 'Big sale', content: 'Everything', recipientCount: MANY, total: MANY, sent: (MANY * 3) / 5, status: 'done' }).returning()
    if (promotion === undefined) throw new Error('no promotion')
    const id = promotion.id
    await t.handle.db.execute(sql`insert into ${promotionRecipients} (promotion_id, lead_id, email) select ${id}, 'lead-' || i, 'reader' || i || '@example.com' from generate_series(1, ${MANY}) i`)
    await t.handle.db.execute(sql`
      insert into ${promotionDeliveries} (promotion_id, lead_id, round, status, attempts, last_error, sent_at, batch_id)
      select ${id}, 'lead-' || i, 1, case when i % 5 = 0 then 'failed' else 'sent' end, i % 3, case when i % 5 = 0 then 'refused ' || i end,
        timestamptz '2030-01-02 03:04:05.678901+00' + i * interval '1 microsecond', 'batch-' || (i / 500)
      from generate_series(1, ${MANY}) i`)
    const deliveries = () => t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id)).orderBy(asc(promotionDeliveries.leadId))
    const recipients = () => t.handle.db.select().from(promotionRecipients).where(eq(promotionRecipients.promotionId, id)).orderBy(asc(promotionRecipients.leadId))
    const before = { deliveries: await deliveries(), recipients: await recipients() }
    expect(before.deliveries).toHaveLength(MANY)

    const token = ticketOf(bodyOf(await post('/DeletePromotion', { id })))
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(0)
    expect(await t.handle.db.$count(promotionRecipients, eq(promotionRecipients.promotionId, id))).toBe(0)
    // One kept row per row taken (the promotion, its recipients, its deliveries), none of them large.
    expect(await t.handle.db.$count(trashRows, eq(trashRows.entry, token))).toBe(1 + MANY + MANY)
    expect(await largestKept(token)).toBeLessThan(2048)

    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Promotion restored successfully' })
    expect(await t.handle.db.select().from(promotions).where(eq(promotions.id, id))).toEqual([promotion])
    expect({ deliveries: await deliveries(), recipients: await recipients() }).toEqual(before)
    expect(await t.handle.db.$count(trashRows, eq(trashRows.entry, token))).toBe(0)
    // Twice MANY rows each way, a batch per transaction: longer than the default on a busy machine.
  }, 90_000)

  it("clears and sets again the brand of a brand's 5,000 leads, one kept row each", async () => {
    const [brand] = await t.handle.db.insert(brands).values({ brandname: 'Crowded brand', type: 'ipfs' }).returning()
    if (brand === undefined) throw new Error('no brand')
    await t.handle.db.execute(sql`insert into ${leads} (email, brand_id) select 'fan' || i || '@example.com', ${brand.id} from generate_series(1, 5000) i`)
    await t.handle.db.insert(leads).values({ email: 'elsewhere@example.com' })
    const fans = async () => (await t.handle.db.select({ id: leads.id }).from(leads).where(eq(leads.brandId, brand.id)).orderBy(asc(leads.id))).map((l) => l.id)
    const before = await fans()
    expect(before).toHaveLength(5000)

    const token = ticketOf(bodyOf(await post('/deleteBrand', { id: brand.id })))
    expect(await fans()).toEqual([])
    expect(await t.handle.db.$count(trashRows, eq(trashRows.entry, token))).toBe(1 + 5000)
    expect(await largestKept(token)).toBeLessThan(2048)
    // A lead given another brand meanwhile keeps it.
    const [moved] = before
    const [other] = await t.handle.db.insert(brands).values({ brandname: 'Other brand', type: 'ipfs' }).returning()
    await t.handle.db.update(leads).set({ brandId: other?.id }).where(eq(leads.id, moved ?? ''))

    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Brand restored successfully' })
    expect(await fans()).toEqual(before.slice(1))
    expect(await t.handle.db.$count(leads, and(eq(leads.email, 'elsewhere@example.com'), sql`${leads.brandId} is null`))).toBe(1)
    // Ten batches each way on PGlite: past the default on a machine as loaded as CI's.
  }, 90_000)

  it(`purges an expired entry of ${MANY.toLocaleString('en-US')} kept rows a batch at a time`, async () => {
    const [promotion] = await t.handle.db.insert(promotions).values({ title: 'Old sale', content: 'Gone', recipientCount: MANY, total: MANY, status: 'done' }).returning({ id: promotions.id })
    const id = promotion?.id ?? ''
    await t.handle.db.execute(sql`insert into ${promotionDeliveries} (promotion_id, lead_id, round, status) select ${id}, 'lead-' || i, 1, 'sent' from generate_series(1, ${MANY}) i`)
    const token = ticketOf(bodyOf(await post('/DeletePromotion', { id })))
    await expire(token)
    while ((await purgeExpired(t.app.services)) === 'again');
    expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(0)
    expect(await t.handle.db.$count(trashRows, eq(trashRows.entry, token))).toBe(0)
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(0)
  })

  it('undoes a freeze by writing the old state back', async () => {
    const id = await addGame('Frosty')
    const frozen = bodyOf(await post('/FreezeCms', { id }))
    expect(frozen).toMatchObject({ status: 'success', message: 'Game frozen successfully', freeze: true, undo: { seconds: 10 } })
    expect(bodyOf(await post('/undo', { token: ticketOf(frozen) }))).toEqual({ status: 'success', message: 'Game unfrozen successfully' })
    const [row] = await t.handle.db.select({ freeze: games.freeze }).from(games).where(eq(games.id, id))
    expect(row?.freeze).toBe(false)
  })
})

describe('who may undo, and until when', () => {
  it('refuses another admin, and lets the superadmin undo what another admin deleted', async () => {
    const id = await addGame('Owned')
    const mine = await t.auth(other)
    const token = ticketOf(bodyOf(await post('/DeleteCms', { id }, mine)))
    const bystander = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    const refused = await post('/undo', { token }, bystander)
    expect(refused.statusCode).toBe(404)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: UNDO_NOT_YOURS })
    expect(await t.handle.db.$count(games, eq(games.id, id))).toBe(0)
    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success' })
    expect(await t.handle.db.$count(games, eq(games.id, id))).toBe(1)
  })

  it('refuses the deleting admin once their access no longer allows the delete', async () => {
    const id = await addGame('Revoked')
    const admin = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const token = ticketOf(bodyOf(await post('/DeleteCms', { id }, await t.auth(admin))))
    const [demoted] = await t.handle.db.update(admins).set({ accessLevel: 'View Only' }).where(eq(admins.id, admin.id)).returning()
    const viewOnly = await t.auth(demoted ?? admin)
    expect((await post('/undo', { token }, viewOnly)).statusCode).toBe(403)
    expect(await t.handle.db.$count(games, eq(games.id, id))).toBe(0)
  })

  it('refuses after the window, and the purge job then removes the entry and the files', async () => {
    const id = await addGame('Late', [png('late.png'), mp4])
    const [row] = await t.handle.db.select().from(games).where(eq(games.id, id))
    const files = [...(row?.images ?? []), row?.video ?? '']
    const token = ticketOf(bodyOf(await post('/DeleteCms', { id })))
    await expire(token)
    const late = await post('/undo', { token })
    expect(late.statusCode).toBe(410)
    expect(bodyOf(late)).toMatchObject({ status: 'failed', message: UNDO_EXPIRED })
    expect(await t.handle.db.$count(games, eq(games.id, id))).toBe(0)
    for (const name of files) expect(uploaded(name)).toBe(true)

    // The queue's purge job (the one the delete queued is due later: run one now).
    await t.app.services.jobs.add(t.handle.db, PURGE_JOB, {})
    t.app.services.jobs.wake()
    await vi.waitFor(async () => expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(0), { timeout: 20_000, interval: 50 })
    await vi.waitFor(() => {
      for (const name of files) expect(uploaded(name)).toBe(false)
      for (const name of row?.images ?? []) expect(uploaded(name.replace('.png', '-thumb.webp'))).toBe(false)
    })
  })

  it('keeps entries that are still within their window when purging', async () => {
    const id = await addGame('Fresh', [png('fresh.png')])
    const token = ticketOf(bodyOf(await post('/DeleteCms', { id })))
    await purgeExpired(t.app.services)
    expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(1)
    const [entry] = await t.handle.db.select().from(trash).where(eq(trash.id, token))
    for (const name of entry?.files ?? []) expect(uploaded(name)).toBe(true)
    expect(entry?.place).toBe(await t.handle.db.$count(games) + 1)
  })

  it('refuses a restore whose name was taken meanwhile, and keeps the entry for another try', async () => {
    const [category] = await t.handle.db.insert(categories).values({ categoryName: 'Racing', image: 'r.png', preference: 2 }).returning({ id: categories.id })
    const token = ticketOf(bodyOf(await post('/deleteCategory', { id: category?.id })))
    await t.handle.db.insert(categories).values({ categoryName: 'racing', image: 'r2.png', preference: 2 })
    const refused = await post('/undo', { token })
    expect(refused.statusCode).toBe(409)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: UNDO_TAKEN })
    expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(1)
    await t.handle.db.delete(categories).where(eq(categories.categoryName, 'racing'))
    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Category restored successfully' })
    expect((await t.handle.db.select({ name: categories.categoryName, place: categories.preference }).from(categories).orderBy(asc(categories.preference))).map((c) => `${c.name}:${c.place}`)).toEqual(['Arcade:1', 'Racing:2'])
  })
})

/**
 * The undoable writes beyond a record's own delete (decision 008): a bulk delete, a field cleared,
 * a saved view. Each is made by an admin (not the superadmin), refused to another admin, undone
 * exactly by its maker, and refused once its window has passed.
 */
describe('bulk, field-level and saved view deletes', () => {
  interface Case {
    name: string
    /** Makes the record(s) to delete; answers what the delete call sends. */
    setup: (maker: Record<string, string>) => Promise<{ path: string; payload: Record<string, unknown> }>
    /** What the undo must bring back, read from the database. */
    state: () => Promise<unknown>
    /** The state after an undo, from the state before (a field's undo raises the edit version). */
    restored?: (before: unknown) => unknown
    deleted: string
    undone: string
  }

  const countryRows = () => t.handle.db.select().from(restrictedCountries).orderBy(asc(restrictedCountries.country))
  const socialRow = async () => (await t.handle.db.select().from(socialMedia))[0]
  const siteRow = async () => (await t.handle.db.select().from(siteSettings))[0]
  let viewId = ''

  const cases: Case[] = [
    {
      name: 'the restricted countries Delete All removed, every one with one undo',
      setup: async (maker) => {
        await t.handle.db.delete(restrictedCountries)
        await post('/AddRestrictions', { country: ['Chile', 'Japan', 'Spain', 'France'] }, maker)
        const rows = await countryRows()
        const spain = rows.find((r) => r.country === 'Spain')
        await post('/HideRestrictions', { hide: true, country: spain?.id }, maker)
        return { path: '/CheckBoxDelete', payload: { deleteData: rows.filter((r) => r.country !== 'France').map((r) => r.id) } }
      },
      state: countryRows,
      deleted: '3 countries removed from the restriction list',
      undone: '3 countries restored to the restriction list',
    },
    {
      name: 'a social link its delete cleared',
      setup: async (maker) => {
        const { id } = (await socialRow()) ?? { id: undefined }
        const links = { discordLink: 'https://discord.gg/undo', twitterLink: 'https://twitter.com/undo', facebookLink: '', instagramLink: '', telegramLink: 'https://t.me/undo' }
        expect(bodyOf(await post('/updatesocialmedia', { ...(id === undefined ? {} : { _id: id }), ...links }, maker))).toMatchObject({ status: 'success' })
        return { path: '/Delete-socialmedia', payload: { linkdata: 'twitterLink' } }
      },
      state: socialRow,
      // The undo is a write: it raises the edit version again, so a form opened meanwhile learns of it.
      restored: (before) => ({ ...z.object({ version: z.number() }).passthrough().parse(before), version: z.object({ version: z.number() }).parse(before).version + 2 }),
      deleted: 'Social media link deleted successfully',
      undone: 'Social media link restored successfully',
    },
    {
      name: 'the version its trash button cleared',
      setup: async (maker) => {
        const [site] = listOf(bodyOf(await get('/getSiteSettings', {}, maker)), 'result')
        const _id = String(site?.['_id'])
        expect(bodyOf(await post('/updateVersion', { _id, version: '4.2.0' }, maker))).toMatchObject({ status: 'success' })
        return { path: '/DeleteVersion', payload: { datas: { _id } } }
      },
      state: siteRow,
      deleted: 'Version deleted successfully',
      undone: 'Version restored successfully',
    },
    {
      name: 'a saved view',
      setup: async (maker) => {
        const saved = bodyOf(await post('/saveView', { route: '/users', name: `Recent ${Date.now()}`, query: '?page=2&search=ann' }, maker))
        viewId = String(saved['id'])
        return { path: '/deleteView', payload: { id: viewId } }
      },
      state: () => t.handle.db.select().from(savedViews).where(eq(savedViews.id, viewId)),
      deleted: 'View deleted',
      undone: 'View restored',
    },
  ]

  for (const c of cases) {
    it(`brings back ${c.name}, for its maker only`, async () => {
      const maker = await t.auth(other)
      const call = await c.setup(maker)
      const before = await c.state()
      const deleted = bodyOf(await post(call.path, call.payload, maker))
      expect(deleted).toMatchObject({ status: 'success', message: c.deleted, undo: { seconds: 10 } })
      const after = await c.state()
      expect(after).not.toEqual(before)

      const bystander = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
      const refused = await post('/undo', { token: ticketOf(deleted) }, bystander)
      expect(refused.statusCode).toBe(404)
      expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: UNDO_NOT_YOURS })
      expect(await c.state()).toEqual(after)

      expect(bodyOf(await post('/undo', { token: ticketOf(deleted) }, maker))).toEqual({ status: 'success', message: c.undone })
      expect(await c.state()).toEqual(c.restored?.(before) ?? before)
      expect(await t.handle.db.$count(trash, eq(trash.id, ticketOf(deleted)))).toBe(0)
    })

    it(`refuses to bring back ${c.name} after the window`, async () => {
      const maker = await t.auth(other)
      const call = await c.setup(maker)
      const token = ticketOf(bodyOf(await post(call.path, call.payload, maker)))
      const after = await c.state()
      await expire(token)
      const late = await post('/undo', { token }, maker)
      expect(late.statusCode).toBe(410)
      expect(bodyOf(late)).toMatchObject({ status: 'failed', message: UNDO_EXPIRED })
      expect(await c.state()).toEqual(after)
    })
  }

  it('keeps a link written since the delete, and refuses the undo', async () => {
    const maker = await t.auth(other)
    const row = await socialRow()
    await post('/updatesocialmedia', { _id: row?.id, discordLink: 'https://discord.gg/old', twitterLink: '', facebookLink: '', instagramLink: '', telegramLink: '' }, maker)
    const token = ticketOf(bodyOf(await post('/Delete-socialmedia', { linkdata: 'discordLink' }, maker)))
    await post('/updatesocialmedia', { _id: row?.id, discordLink: 'https://discord.gg/new', twitterLink: '', facebookLink: '', instagramLink: '', telegramLink: '' })
    const refused = await post('/undo', { token }, maker)
    expect(refused.statusCode).toBe(409)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: UNDO_CHANGED })
    expect((await socialRow())?.discordLink).toBe('https://discord.gg/new')
  })

  it('restores no country of a Delete All when one of them was added again meanwhile', async () => {
    const maker = await t.auth(other)
    await t.handle.db.delete(restrictedCountries)
    await post('/AddRestrictions', { country: ['Chile', 'Japan'] }, maker)
    const rows = await countryRows()
    const token = ticketOf(bodyOf(await post('/CheckBoxDelete', { deleteData: rows.map((r) => r.id) }, maker)))
    await post('/AddRestrictions', { country: ['Japan'] }, maker)
    const refused = await post('/undo', { token }, maker)
    expect(refused.statusCode).toBe(409)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: UNDO_TAKEN })
    expect((await countryRows()).map((r) => r.country)).toEqual(['Japan'])
    expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(1)
  })

  it('refuses to bring back a saved view once the list holds as many as it may', async () => {
    const maker = await t.auth(other)
    const save = async (name: string) => String(bodyOf(await post('/saveView', { route: '/brand', name, query: '' }, maker))['id'])
    const first = await save('View 0')
    for (let i = 1; i < MAX_VIEWS_PER_LIST; i++) await save(`View ${i}`)
    const token = ticketOf(bodyOf(await post('/deleteView', { id: first }, maker)))
    await save('Its replacement')
    const refused = await post('/undo', { token }, maker)
    expect(refused.statusCode).toBe(409)
    expect(bodyOf(refused)['message']).toBe(`You can keep at most ${MAX_VIEWS_PER_LIST} views per list; delete one first`)
    expect(await t.handle.db.$count(savedViews, eq(savedViews.id, first))).toBe(0)
    expect(await t.handle.db.$count(trash, eq(trash.id, token))).toBe(1)
  })
})
