import { z } from 'zod/mini'
import { Done, ExpectedVersion, RecordVersion, integer, ok, preprocess, required } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import * as self from './ticket-product.ts'

/*
 * Edit Token (/edit-token): the game ticket product, which the requirements call a token (the code says
 * ticket product, keeping "token" for a session's; the calls keep the requirements' words).
 * Requirements R2.16 gives a screen with token name, price, product id and ticket count, and no call behind it. Both calls here are ours: one token record, read and saved in
 * place. The screen is not a menu page, so it is no Access option of its own: contract/routes.ts
 * makes it a child of Games (/cms), and both calls name /cms, so whoever may use Games may use it
 * (reading for any access level, saving for Admin only).
 */

/** Largest ticket count: the column is a 32-bit integer. */
export const MAX_TICKET_COUNT = 2_147_483_647

/**
 * What a price can be counted in: the fiat and stable coins the apps' stores price in, and the two
 * coins the wallet trades most. A price without its currency is a number staff can misread by a
 * factor of thousands, so the record always carries one (USD until chosen).
 */
export const TOKEN_CURRENCIES = ['USD', 'EUR', 'GBP', 'USDT', 'USDC', 'BTC', 'ETH'] as const
export const CURRENCY_FORMAT = 'Currency must be one of ' + TOKEN_CURRENCIES.join(', ')

/** The token record. `price` is a decimal string, kept exact (never a binary float), in `currency`. */
export const TokenSettings = z.object({
  _id: z.string(),
  tokenName: z.string(),
  price: z.string(),
  currency: z.enum(TOKEN_CURRENCIES),
  productId: z.string(),
  ticketCount: integer(),
  /** Ours: the edit version (common.ts, RECORD_CHANGED). */
  version: RecordVersion,
})
export type TokenSettings = z.output<typeof TokenSettings>

export const PRICE_REQUIRED = 'Price is required'
export const PRICE_FORMAT = 'Price must be 0 or more, with at most 20 digits before the point and 10 after'
export const TICKETS_REQUIRED = 'Ticket count is required'
export const TICKETS_FORMAT = 'Ticket count must be a whole number of 0 or more'

/** Form fields and JSON numbers alike arrive as text; an empty field is missing, not 0. */
const asText = (v: unknown): unknown => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v)

/** A non-negative decimal as text: at most 20 integer and 10 fraction digits (the column's numeric(30, 10)). */
const Price = preprocess(
  asText,
  z.string({ error: PRICE_REQUIRED }).check(z.trim(), z.minLength(1, PRICE_REQUIRED), z.regex(/^\d{1,20}(\.\d{1,10})?$/, PRICE_FORMAT)),
)

const TicketCount = preprocess(
  asText,
  z
    .pipe(
      z.string({ error: TICKETS_REQUIRED }).check(z.trim(), z.minLength(1, TICKETS_REQUIRED), z.regex(/^\d{1,10}$/, TICKETS_FORMAT)),
      z.transform(Number),
    )
    .check(z.refine((n) => n <= MAX_TICKET_COUNT, TICKETS_FORMAT)),
)

/** The save's fields: name and product id required, price a non-negative decimal, ticket count a non-negative integer. */
export const TokenInput = z.object({
  tokenName: required('Token name is required', 100),
  price: Price,
  /** Left out, the saved currency stays (a caller that predates it keeps working). */
  currency: z.optional(z.enum(TOKEN_CURRENCIES, { error: CURRENCY_FORMAT })),
  productId: required('Product id is required', 100),
  ticketCount: TicketCount,
  version: ExpectedVersion,
})

/** The token record; the first read creates it empty, so the answer always carries a real `_id`. */
export const getToken = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ data: TokenSettings }),
  access: reads('/cms'),
  ours: 'Not in the requirements: the read of Edit Token (a child page of Games).',
})

/** Saves the one token record in place. */
export const updateToken = endpoint({
  logAs: 'Token updated',
  method: 'POST',
  input: TokenInput,
  output: Done,
  access: writes('/cms'),
  ours: 'Not in the requirements, whose Edit Token submit is wired to nothing: saves tokenName, price (decimal text) and its currency, productId, ticketCount.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
