/**
 * Edit Token (contract/ticket-product.ts): one token record, created empty on first read
 * (single-record.ts) and saved in place. The price is a numeric column written and read as
 * decimal text, so 0.1 stays 0.1 and twenty-digit prices keep every digit.
 */
import { asc } from 'drizzle-orm'
import * as ticketProduct from '#contract/ticket-product'
import { handlers } from '../../kit/request/handlers.ts'
import { editVersion, recordChanged } from '../../kit/request/edit-version.ts'
import type { Db } from '../../db/index.ts'
import { tokenSettings, type TokenSettingsRow } from '../../db/schema.ts'
import { singleRecord } from '../../kit/ground/single-record.ts'

const record = {
  table: 'token_settings',
  read: async (db: Db): Promise<TokenSettingsRow | undefined> => (await db.select().from(tokenSettings).orderBy(asc(tokenSettings.id)).limit(1))[0],
  create: async (db: Db) => (await db.insert(tokenSettings).values({}).returning())[0],
}

const tokenVersions = editVersion({ id: tokenSettings.id, version: tokenSettings.version })

/** The column keeps 10 decimals ('12.5000000000'); the screen shows what was typed ('12.5'). */
export const plainDecimal = (stored: string): string => (stored.includes('.') ? stored.replace(/0+$/, '').replace(/\.$/, '') : stored)

export const ticketProductRoutes = handlers(ticketProduct, {
  getToken: async (_input, ctx) => {
    const row = await singleRecord(ctx.db, record)
    return {
      status: 'success',
      message: 'Token fetched',
      data: { _id: row.id, tokenName: row.tokenName, price: plainDecimal(row.price), currency: row.currency, productId: row.productId, ticketCount: row.ticketCount, version: row.version },
    }
  },

  updateToken: async ({ tokenName, price, currency, productId, ticketCount, version }, ctx) => {
    const { id } = await singleRecord(ctx.db, record)
    const updated = await ctx.db
      .update(tokenSettings)
      .set({ tokenName, price, ...(currency === undefined ? {} : { currency }), productId, ticketCount, version: tokenVersions.next })
      .where(tokenVersions.matches(id, version))
      .returning({ id: tokenSettings.id })
    // The one record exists (read above): matching nothing means its version moved on.
    if (updated.length === 0) return recordChanged()
    ctx.audit(id)
    return { status: 'success', message: 'Token updated successfully' }
  },
})
