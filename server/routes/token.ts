/**
 * Edit Token (contract/token.ts): one token record, created empty on first read
 * (single-record.ts) and saved in place. The price is a numeric column written and read as
 * decimal text, so 0.1 stays 0.1 and twenty-digit prices keep every digit.
 */
import { asc, eq } from 'drizzle-orm'
import * as token from '#contract/token'
import { handlers } from '../kit/api.ts'
import type { Db } from '../db/index.ts'
import { tokenSettings, type TokenSettingsRow } from '../db/schema.ts'
import { singleRecord } from './single-record.ts'

const record = {
  table: 'token_settings',
  read: async (db: Db): Promise<TokenSettingsRow | undefined> => (await db.select().from(tokenSettings).orderBy(asc(tokenSettings.id)).limit(1))[0],
  create: async (db: Db) => (await db.insert(tokenSettings).values({}).returning())[0],
}

/** The column keeps 10 decimals ('12.5000000000'); the screen shows what was typed ('12.5'). */
export const plainDecimal = (stored: string): string => (stored.includes('.') ? stored.replace(/0+$/, '').replace(/\.$/, '') : stored)

export const tokenRoutes = handlers(token, {
  getToken: async (_input, ctx) => {
    const row = await singleRecord(ctx.db, record)
    return {
      status: 'success',
      message: 'Token fetched',
      data: { _id: row.id, tokenName: row.tokenName, price: plainDecimal(row.price), productId: row.productId, ticketCount: row.ticketCount },
    }
  },

  updateToken: async ({ tokenName, price, productId, ticketCount }, ctx) => {
    const { id } = await singleRecord(ctx.db, record)
    await ctx.db.update(tokenSettings).set({ tokenName, price, productId, ticketCount }).where(eq(tokenSettings.id, id))
    ctx.audit(id)
    return { status: 'success', message: 'Token updated successfully' }
  },
})
