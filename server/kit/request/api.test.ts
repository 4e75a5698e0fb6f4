/**
 * The registrar's guarantees: a write and its audit row commit together or not at all,
 * and multipart bodies reach only the endpoints that declare files, bounded by what
 * their schemas accept.
 */
import { existsSync, readdirSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { addcategory } from '#contract/catalog'
import { Editcms, addcms } from '#contract/games'
import { admins, auditLog, categories } from '../../db/schema.ts'
import { gradientIcon } from '../../db/png.ts'
import { LOGIN_FAILED } from '../ground/access/sign-in-answers.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { FORM_TOO_LARGE, formBounds } from '../ground/uploads.ts'

let t: TestApp
let admin: { authorization: string }
let address = 0
const nextAddress = (): string => `10.7.${Math.floor(++address / 250)}.${address % 250}`

const png = (): UploadFile => ({ field: 'image', name: 'icon.png', type: 'image/png', content: gradientIcon(8, [20, 80, 200], [120, 200, 255]) })
const uploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])

async function form(path: string, fields: Record<string, string | string[]>, files: UploadFile[] = [], headers: Record<string, string> = admin) {
  const body = await multipart(fields, files)
  return t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: body.payload, headers: { ...headers, ...body.headers }, remoteAddress: nextAddress() })
}
const json = (path: string, payload: unknown, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { ...headers, 'content-type': 'application/json' }, remoteAddress: nextAddress() })

/** Makes every audit insert for `action` fail in the database, with SQLSTATE `code`. */
async function breakAudit(action: string, code = 'P0001'): Promise<void> {
  await t.handle.db.execute(
    sql.raw(`create or replace function fail_audit() returns trigger language plpgsql as $$
      begin
        if new.action = '${action}' then raise exception 'audit insert refused' using errcode = '${code}'; end if;
        return new;
      end $$`),
  )
  await t.handle.db.execute(sql`drop trigger if exists audit_fail on audit_log`)
  await t.handle.db.execute(sql`create trigger audit_fail before insert on audit_log for each row execute function fail_audit()`)
}

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})
afterEach(async () => {
  await t.handle.db.execute(sql`drop trigger if exists audit_fail on audit_log`)
})

describe('a write and its audit row, in one transaction', () => {
  it('commits both on success', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await json('/edit-profile', { name: 'Renamed once' }, await t.auth(staff)))['status']).toBe('success')
    const [row] = await t.handle.db.select({ name: admins.name }).from(admins).where(eq(admins.id, staff.id))
    expect(row?.name).toBe('Renamed once')
    const audits = await t.handle.db.select().from(auditLog).where(eq(auditLog.adminId, staff.id))
    expect(audits.map((a) => a.action)).toEqual(['/edit-profile'])
  })

  it('rolls the write back when the audit insert fails, and says so (500)', async () => {
    const staff = await t.createAdmin({ name: 'Before' })
    await breakAudit('/edit-profile')
    const res = await json('/edit-profile', { name: 'After' }, await t.auth(staff))
    expect(res.statusCode).toBe(500)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Something went wrong' })
    const [row] = await t.handle.db.select({ name: admins.name }).from(admins).where(eq(admins.id, staff.id))
    expect(row?.name).toBe('Before')
  })

  it('answers 503 when the audit insert fails as a lost connection does, with nothing written', async () => {
    const staff = await t.createAdmin({ name: 'Before' })
    await breakAudit('/edit-profile', '08006')
    const res = await json('/edit-profile', { name: 'After' }, await t.auth(staff))
    expect(res.statusCode).toBe(503)
    const [row] = await t.handle.db.select({ name: admins.name }).from(admins).where(eq(admins.id, staff.id))
    expect(row?.name).toBe('Before')
  })

  it('leaves no row and no stored file of an upload whose audit insert fails', async () => {
    const before = uploads()
    await breakAudit('/addcategory')
    const res = await form('/addcategory', { categoryName: 'Never kept' }, [png()])
    expect(res.statusCode).toBe(500)
    expect(await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Never kept'))).toEqual([])
    expect(uploads()).toEqual(before)
  })

  it("rolls back the handler's own writes too (a sign-in's cleared failures) when its audit insert fails", async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < 2; i++) expect(bodyOf(await json('/login', { email: staff.email, password: 'Wrong@1234' }))['message']).toBe(LOGIN_FAILED)
    await breakAudit('/login')
    expect((await json('/login', { email: staff.email, password: TEST_PASSWORD })).statusCode).toBe(500)
    // The sign-in did not happen: its clearing of the count went with it.
    expect((await t.lockoutOf(staff.email))?.failures).toBe(2)
  })

  it('keeps what a refused call wrote (a counted failure) without an audit row claiming a write', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await json('/login', { email: staff.email, password: 'Wrong@1234' }))['message']).toBe(LOGIN_FAILED)
    expect((await t.lockoutOf(staff.email))?.failures).toBe(1)
    // The failure is an event of the audit log (a failed sign-in), never a row claiming the write.
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, staff.id))
    expect(rows.map((r) => r.action)).toEqual(['sign-in-failed'])
  })
})

describe('multipart only where an endpoint declares files', () => {
  const UNSUPPORTED = { status: 'failed', message: 'Unsupported content type' }

  it('answers a multipart body to login or to a signed-in call without files 415', async () => {
    const login = await form('/login', { email: 'someone@example.com', password: TEST_PASSWORD, twoFACode: '' }, [], {})
    expect(login.statusCode).toBe(415)
    expect(bodyOf(login)).toEqual(UNSUPPORTED)
    const profile = await form('/edit-profile', { name: 'By form' })
    expect(profile.statusCode).toBe(415)
    expect(bodyOf(profile)).toEqual(UNSUPPORTED)
    // Who may call is still decided first: no token is 401, whatever the body.
    expect((await form('/edit-profile', { name: 'By form' }, [], {})).statusCode).toBe(401)
  })

  it('keeps multipart and JSON on an endpoint with files', async () => {
    expect(bodyOf(await form('/addcategory', { categoryName: 'By form' }, [png()]))['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'By form'))
    expect(bodyOf(await json('/editCategoryData', { id: row?.id, categoryName: 'By JSON', preference: 1 }))['status']).toBe('success')
  })

  it('refuses more text fields than the schema names, and a field longer than it allows, with 413', async () => {
    const extra: Record<string, string> = { categoryName: 'Too many' }
    for (let i = 0; i < 40; i++) extra[`field${i}`] = 'x'
    const many = await form('/addcategory', extra, [png()])
    expect(many.statusCode).toBe(413)
    expect(bodyOf(many)).toEqual({ status: 'failed', message: FORM_TOO_LARGE })
    // categoryName holds at most 100 characters: 200 kB of it is refused before the schema is asked.
    const long = await form('/addcategory', { categoryName: 'y'.repeat(200_000) }, [png()])
    expect(long.statusCode).toBe(413)
    expect(bodyOf(long)).toEqual({ status: 'failed', message: FORM_TOO_LARGE })
    // A name a little over the limit reaches the schema, which answers with the field message.
    expect((await form('/addcategory', { categoryName: 'z'.repeat(101) }, [png()])).statusCode).toBe(400)
    expect(await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Too many'))).toEqual([])
  })

  it('derives the bounds from the schema: a few small fields for a category, room for a game description', () => {
    const category = formBounds(addcategory.input)
    expect(category.fields).toBeLessThanOrEqual(10)
    expect(category.fieldSize).toBeLessThan(1024)
    const game = formBounds(addcms.input)
    // description: 5000 characters of up to 3 bytes each.
    expect(game.fieldSize).toBeGreaterThanOrEqual(15_000)
    expect(game.textBytes).toBeLessThan(200_000)
    const edit = formBounds(Editcms.input)
    // keptImages and keptVideo are lists without a schema maximum: bounded, but allowed to repeat.
    expect(edit.fields).toBeGreaterThan(100)
    expect(edit.textBytes).toBeLessThan(4 * 1024 * 1024)
  })
})
