import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORD_NOT_FOUND } from '../../kit/request/answers.ts'
import { auditLog, socialMedia, type AdminRow } from '../../db/schema.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const post = async (path: string, payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })

/** The record as socialmedia-get answers it (data.data[0]). */
async function current(as: AdminRow = t.superadmin): Promise<Record<string, unknown>> {
  const body = bodyOf(await post('/socialmedia-get', {}, as))
  expect(body).toMatchObject({ status: 'success' })
  const data = body['data']
  if (typeof data !== 'object' || data === null || !('data' in data)) throw new Error('no data.data')
  const [first] = listOf({ data: data.data }, 'data')
  if (first === undefined) throw new Error('data.data is empty')
  return first
}

const links = {
  discordLink: 'https://discord.gg/wallet',
  facebookLink: 'https://facebook.com/wallet',
  twitterLink: 'https://x.com/wallet',
  instagramLink: 'www.instagram.com/wallet',
  telegramLink: 'https://t.me/wallet',
}

describe('Social Links', () => {
  it('answers one blank record with a real _id before anything was saved, created once even by racing first reads', async () => {
    const answers = await Promise.all([current(), current(), current()])
    expect(new Set(answers.map((a) => a['_id'])).size).toBe(1)
    const rows = await t.handle.db.select().from(socialMedia)
    expect(rows).toHaveLength(1)
    expect(answers[0]).toEqual({ _id: rows[0]?.id, discordLink: '', facebookLink: '', twitterLink: '', instagramLink: '', telegramLink: '', version: 1 })
  })

  it('saves the five links with Update and audits the record', async () => {
    const { _id } = await current()
    const res = await post('/updatesocialmedia', { _id, ...links })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Social media updated successfully' })
    expect(await current()).toEqual({ _id, ...links, version: expect.any(Number) })
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/updatesocialmedia'))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, recordId: _id })
  })

  it("says 'Incorrect format' under a filled link that is not a URL, and saves nothing", async () => {
    const before = await current()
    const res = await post('/updatesocialmedia', { _id: before['_id'], ...links, telegramLink: 'not a link', discordLink: 'ftp://x.example' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Incorrect format', errors: { telegramLink: 'Incorrect format', discordLink: 'Incorrect format' } })
    expect(await current()).toEqual(before)
  })

  it('deletes only the named link of the stored record, not the unsaved edits of the form', async () => {
    const { _id } = await current()
    await post('/updatesocialmedia', { _id, ...links })
    const res = await post('/Delete-socialmedia', { linkdata: 'twitterLink', datas: { _id, ...links, facebookLink: 'https://facebook.com/unsaved-edit' } })
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: 'Social media link deleted successfully', undo: { seconds: 10 } })
    expect(await current()).toEqual({ _id, ...links, twitterLink: '', version: expect.any(Number) })
  })

  it('refuses an unknown field name or record id, and changes nothing', async () => {
    const before = await current()
    const unknownField = await post('/Delete-socialmedia', { linkdata: 'password', datas: {} })
    expect(bodyOf(unknownField)).toEqual({ status: 'failed', message: 'Incorrect format', errors: { linkdata: 'Incorrect format' } })
    const otherRecord = await post('/Delete-socialmedia', { linkdata: 'discordLink', datas: { _id: 'not-this-record' } })
    expect(otherRecord.statusCode).toBe(404)
    expect(bodyOf(otherRecord)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { datas: RECORD_NOT_FOUND } })
    const update = await post('/updatesocialmedia', { _id: 'not-this-record', ...links, discordLink: '' })
    expect(bodyOf(update)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
    expect(await current()).toEqual(before)
  })

  it('saves without an _id (a screen that never read the record) into the one record', async () => {
    const { _id } = await current()
    expect(bodyOf(await post('/updatesocialmedia', { ...links, discordLink: '' }))['status']).toBe('success')
    expect(await current()).toEqual({ _id, ...links, discordLink: '', version: expect.any(Number) })
    expect(await t.handle.db.select().from(socialMedia)).toHaveLength(1)
  })

  it('lets View Only staff read the links and refuses their writes', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/social-links'] })
    const before = await current(viewer)
    expect((await post('/updatesocialmedia', { _id: before['_id'], ...links, discordLink: '' }, viewer)).statusCode).toBe(403)
    expect((await post('/Delete-socialmedia', { linkdata: 'telegramLink' }, viewer)).statusCode).toBe(403)
    expect(await current()).toEqual(before)
  })
})
