import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CURRENCY_FORMAT, PRICE_FORMAT, PRICE_REQUIRED, TICKETS_FORMAT, TICKETS_REQUIRED } from '#contract/ticket-product'
import { auditLog, tokenSettings, type AdminRow } from '../../db/schema.ts'
import { bodyOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { plainDecimal } from './routes.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const save = async (payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: '/api/admin/updateToken', payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const read = async (as: AdminRow = t.superadmin) => t.app.inject({ method: 'GET', url: '/api/admin/getToken', headers: await t.auth(as) })
const dataOf = async (as?: AdminRow): Promise<unknown> => bodyOf(await read(as))['data']

const valid = { tokenName: 'Game Ticket', price: '0.1', productId: 'com.wallet.ticket', ticketCount: 25 }

describe('GET /getToken', () => {
  it('creates the one record empty on first read, once, even when two reads race', async () => {
    const [a, b] = await Promise.all([dataOf(), dataOf()])
    expect(a).toEqual({ _id: expect.any(String), tokenName: '', price: '0', currency: 'USD', productId: '', ticketCount: 0, version: 1 })
    expect(b).toEqual(a)
    expect(await t.handle.db.select().from(tokenSettings)).toHaveLength(1)
  })
})

describe('POST /updateToken', () => {
  it('saves the fields in the one record, keeps the price exact, and audits the save', async () => {
    expect(bodyOf(await save(valid))).toEqual({ status: 'success', message: 'Token updated successfully' })
    const data = await dataOf()
    expect(data).toMatchObject({ tokenName: 'Game Ticket', price: '0.1', productId: 'com.wallet.ticket', ticketCount: 25 })
    const [row, ...more] = await t.handle.db.select().from(tokenSettings)
    expect(more).toEqual([])
    expect(row?.price).toBe('0.1000000000')
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/updateToken'))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, recordId: row?.id })
    // Twenty integer digits and ten decimals: more than a double holds, every digit kept.
    expect(bodyOf(await save({ ...valid, price: '12345678901234567890.0123456789', ticketCount: '7' }))['status']).toBe('success')
    expect(await dataOf()).toMatchObject({ price: '12345678901234567890.0123456789', ticketCount: 7 })
    expect(bodyOf(await save({ ...valid, price: 3, ticketCount: 0 }))['status']).toBe('success')
    expect(await dataOf()).toMatchObject({ price: '3', ticketCount: 0 })
  })

  it('asks for the name, price, product id and ticket count', async () => {
    const res = await save({ tokenName: ' ', price: '', productId: '', ticketCount: '' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({
      status: 'failed',
      message: 'Token name is required',
      errors: { tokenName: 'Token name is required', price: PRICE_REQUIRED, productId: 'Product id is required', ticketCount: TICKETS_REQUIRED },
    })
    expect(bodyOf(await save({}))['errors']).toMatchObject({ price: PRICE_REQUIRED, ticketCount: TICKETS_REQUIRED })
  })

  it('refuses a negative, non-numeric or too precise price, and a negative, fractional or too large ticket count, changing nothing', async () => {
    const before = await dataOf()
    for (const price of ['-1', 'abc', '1e5', '0.12345678901', '123456789012345678901', '1,5']) {
      expect(bodyOf(await save({ ...valid, price }))['errors'], price).toEqual({ price: PRICE_FORMAT })
    }
    for (const ticketCount of [-1, 2.5, '3.0', 'ten', 2_147_483_648]) {
      expect(bodyOf(await save({ ...valid, ticketCount }))['errors'], String(ticketCount)).toEqual({ ticketCount: TICKETS_FORMAT })
    }
    expect(await dataOf()).toEqual(before)
  })

  it('keeps the price’s currency: saved with it, kept when a save leaves it out, refused outside the list', async () => {
    expect(bodyOf(await save({ ...valid, currency: 'EUR' }))['status']).toBe('success')
    expect(await dataOf()).toMatchObject({ price: '0.1', currency: 'EUR' })
    expect(bodyOf(await save({ ...valid, price: '0.2' }))['status']).toBe('success')
    expect(await dataOf()).toMatchObject({ price: '0.2', currency: 'EUR' })
    const before = await dataOf()
    for (const currency of ['eur', 'DOGE', '', 5]) {
      expect(bodyOf(await save({ ...valid, currency }))['errors'], String(currency)).toEqual({ currency: CURRENCY_FORMAT })
    }
    expect(await dataOf()).toEqual(before)
  })

  it('is a child of Games: /cms staff read it, only Admin saves, others are refused', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/cms'] })
    expect((await read(viewer)).statusCode).toBe(200)
    expect((await save(valid, viewer)).statusCode).toBe(403)
    const gamesAdmin = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/cms', '/add-cms', '/edit-cms', '/edit-token'] })
    expect((await save({ ...valid, tokenName: 'Games admin' }, gamesAdmin)).statusCode).toBe(200)
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    expect((await read(other)).statusCode).toBe(403)
    expect((await save(valid, other)).statusCode).toBe(403)
    expect(await dataOf()).toMatchObject({ tokenName: 'Games admin' })
  })
})

describe('plainDecimal', () => {
  it('drops the column’s trailing zeros only after a point', () => {
    expect(plainDecimal('12.5000000000')).toBe('12.5')
    expect(plainDecimal('100.0000000000')).toBe('100')
    expect(plainDecimal('100')).toBe('100')
    expect(plainDecimal('0.0000000000')).toBe('0')
  })
})
