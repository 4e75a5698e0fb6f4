import { existsSync, readdirSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_KIND_MESSAGE } from '#contract/multipart'
import { RECORD_NOT_FOUND } from '../../kit/request/answers.ts'
import { auditLog, siteSettings, type AdminRow } from '../../db/schema.ts'
import { gradientIcon } from '../../db/png.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp({ env: { SUPPORT_EMAIL: 'help@wallet.example' } })
})
afterAll(async () => {
  await t.close()
})

const post = async (path: string, payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const get = async (path: string, as: AdminRow = t.superadmin) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: await t.auth(as) })
const saveSettings = async (fields: Record<string, string>, files: UploadFile[] = [], as: AdminRow = t.superadmin) => {
  const form = await multipart(fields, files)
  return t.app.inject({ method: 'POST', url: '/api/admin/settings-update', payload: form.payload, headers: { ...(await t.auth(as)), ...form.headers } })
}

const logo = (name = 'logo.png'): UploadFile => ({ field: 'sitelogo', name, type: 'image/png', content: gradientIcon(24, [10, 60, 160], [90, 200, 250]) })
const uploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])
const temps = (): string[] => (existsSync(t.config.tmpDir) ? readdirSync(t.config.tmpDir) : [])

/** result[0] of a read answering `result`. */
async function first(path: string, as: AdminRow = t.superadmin): Promise<Record<string, unknown>> {
  const body = bodyOf(await get(path, as))
  expect(body).toMatchObject({ status: 'success' })
  const [row] = listOf(body, 'result')
  if (row === undefined) throw new Error(`${path}: result is empty`)
  return row
}
const versionOf = async (): Promise<unknown> => {
  const body = bodyOf(await post('/get_version', {}))
  expect(body).toMatchObject({ status: 'success' })
  const data = body['data']
  return typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined
}
const publicInfo = async (): Promise<Record<string, unknown>> => {
  const body = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/public-info' }))
  const data = body['data']
  if (typeof data !== 'object' || data === null) throw new Error('no data')
  return { ...data }
}

const fullSettings = {
  contact_person: 'Ada Mensah',
  email: 'Support@Wallet.example',
  sitename: 'Wallet Back Office',
  site_description: 'Games and tokens in one wallet.',
  address: '1 Harbour Street, Lisbon',
  reg_code: 'PT-509-221',
  phone_number: '+351 21 000 0000',
  mobile_number: '+351 912-345-678',
  google_analytics: 'G-ABC123',
  company_info_link: 'https://wallet.example/company',
  license_info_link: 'www.wallet.example/license',
  social_link1: 'https://x.com/wallet',
  social_link2: 'https://medium.com/@wallet',
  social_link3: 'https://t.me/wallet',
  social_link4: 'https://facebook.com/wallet',
  social_link5: 'https://linkedin.com/company/wallet',
  copyright_text: '© 2026 Wallet',
  forcedliq: 'Enable',
}

describe('public info before any settings exist', () => {
  it('answers an empty site name and logo without creating the record', async () => {
    expect(await publicInfo()).toMatchObject({ supportEmail: 'help@wallet.example', sitename: '', sitelogo: '' })
    expect(await versionOf()).toBe('')
    expect(await t.handle.db.select().from(siteSettings)).toEqual([])
  })
})

describe('Version', () => {
  it('reads result[0] = { _id, version } from the one record, created once even by racing first reads', async () => {
    const answers = await Promise.all([first('/getSiteSettings'), first('/getSiteSettings'), first('/settings-get')])
    const rows = await t.handle.db.select().from(siteSettings)
    expect(rows).toHaveLength(1)
    expect(answers[0]).toEqual({ _id: rows[0]?.id, version: '' })
    expect(answers[2]?.['_id']).toBe(rows[0]?.id)
  })

  it('updates the version, which get_version then answers, and audits the record', async () => {
    const { _id } = await first('/getSiteSettings')
    expect(bodyOf(await post('/updateVersion', { _id, version: ' 2.4.1 ' }))).toEqual({ status: 'success', message: 'Version updated successfully' })
    expect(await versionOf()).toBe('2.4.1')
    expect(await first('/getSiteSettings')).toEqual({ _id, version: '2.4.1' })
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/updateVersion'))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, recordId: _id })
  })

  it('answers failed with field errors for an empty version or an unknown record', async () => {
    const { _id } = await first('/getSiteSettings')
    const empty = await post('/updateVersion', { _id, version: '  ' })
    expect(empty.statusCode).toBe(400)
    expect(bodyOf(empty)).toEqual({ status: 'failed', message: 'version is required', errors: { version: 'version is required' } })
    const unknown = await post('/updateVersion', { _id: 'no-such-record', version: '9.9.9' })
    expect(unknown.statusCode).toBe(404)
    expect(bodyOf(unknown)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
    expect(bodyOf(await post('/DeleteVersion', { datas: { _id: 'no-such-record' } }))).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { datas: RECORD_NOT_FOUND } })
    expect(bodyOf(await post('/DeleteVersion', {}))).toMatchObject({ status: 'failed', errors: { datas: 'Incorrect format' } })
    expect(await versionOf()).toBe('2.4.1')
  })

  it('clears the version with the trash button (DeleteVersion datas._id)', async () => {
    const record = await first('/getSiteSettings')
    expect(bodyOf(await post('/DeleteVersion', { datas: record }))).toMatchObject({ status: 'success', message: 'Version deleted successfully', undo: { seconds: 10 } })
    expect(await versionOf()).toBe('')
  })

  it('lets View Only staff read the version and refuses their writes', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/version'] })
    const { _id } = await first('/getSiteSettings', viewer)
    expect((await post('/updateVersion', { _id, version: '3.0.0' }, viewer)).statusCode).toBe(403)
    expect((await post('/DeleteVersion', { datas: { _id } }, viewer)).statusCode).toBe(403)
  })
})

describe('Settings', () => {
  it('reads the whole record, with an empty logo before one is uploaded', async () => {
    const record = await first('/settings-get')
    expect(record).toMatchObject({ sitename: '', sitelogo: '', forcedliq: 'Disable', email: '', social_link5: '' })
  })

  it('saves every field and a logo checked by content, served at the URL the read answers', async () => {
    const res = await saveSettings(fullSettings, [logo()])
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Settings updated successfully' })
    const record = await first('/settings-get')
    expect(record).toMatchObject({ ...fullSettings, version: '' })
    expect(record['sitelogo']).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/)
    const served = await t.app.inject({ method: 'GET', url: String(record['sitelogo']) })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.equals(logo().content)).toBe(true)
    expect(await publicInfo()).toMatchObject({ sitename: 'Wallet Back Office', sitelogo: record['sitelogo'] })
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/settings-update'))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, recordId: record['_id'] })
  })

  it('keeps the logo when saved without one, and removes the old file when a new one replaces it', async () => {
    const before = String((await first('/settings-get'))['sitelogo'])
    const oldFile = before.replace('/uploads/', '')
    expect(bodyOf(await saveSettings({ ...fullSettings, sitename: 'Renamed' }))['status']).toBe('success')
    expect(await first('/settings-get')).toMatchObject({ sitename: 'Renamed', sitelogo: before })
    expect(uploads()).toContain(oldFile)

    expect(bodyOf(await saveSettings(fullSettings, [logo('new.png')]))['status']).toBe('success')
    const after = String((await first('/settings-get'))['sitelogo'])
    expect(after).not.toBe(before)
    expect(uploads()).not.toContain(oldFile)
    expect(uploads()).toContain(after.replace('/uploads/', ''))
    expect((await t.app.inject({ method: 'GET', url: before })).statusCode).toBe(404)
  })

  it('refuses a text file named .png with the image message, storing nothing and keeping the logo', async () => {
    const before = await first('/settings-get')
    const files = uploads()
    const fake: UploadFile = { field: 'sitelogo', name: 'logo.png', type: 'image/png', content: Buffer.from('plain text pretending to be a picture') }
    const res = await saveSettings({ ...fullSettings, sitename: 'Not saved' }, [fake])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: IMAGE_KIND_MESSAGE, errors: { sitelogo: IMAGE_KIND_MESSAGE } })
    expect(await first('/settings-get')).toEqual(before)
    expect(uploads()).toEqual(files)
    expect(temps()).toEqual([])
  })

  it("says 'Incorrect format' under each malformed field, changing nothing", async () => {
    const before = await first('/settings-get')
    const res = await saveSettings({
      ...fullSettings,
      email: 'not-an-email',
      phone_number: 'call me',
      company_info_link: 'wallet dot example',
      social_link2: 'javascript:alert(1)',
      forcedliq: 'Maybe',
    })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({
      status: 'failed',
      message: 'Incorrect format',
      errors: { email: 'Incorrect format', phone_number: 'Incorrect format', company_info_link: 'Incorrect format', social_link2: 'Incorrect format', forcedliq: 'Incorrect format' },
    })
    expect(await first('/settings-get')).toEqual(before)
  })

  it('leaves the version alone: it belongs to the Version screen', async () => {
    const { _id } = await first('/getSiteSettings')
    await post('/updateVersion', { _id, version: '5.0.0' })
    expect(bodyOf(await saveSettings({ ...fullSettings, version: '0.0.1' }))['status']).toBe('success')
    expect(await versionOf()).toBe('5.0.0')
  })

  it('refuses View Only writes before reading the upload', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/settings'] })
    const before = await first('/settings-get', viewer)
    const files = uploads()
    expect((await saveSettings({ ...fullSettings, sitename: 'Hijacked' }, [logo()], viewer)).statusCode).toBe(403)
    expect(await first('/settings-get')).toEqual(before)
    expect(uploads()).toEqual(files)
  })
})
