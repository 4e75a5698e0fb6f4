/** The palette's search of every area (contract/search.ts): the areas' finders, for this session. */
import * as search from '#contract/search'
import { handlers } from '../../kit/request/handlers.ts'
import { findEverywhere } from '../../kit/request/record-search.ts'

export const searchRoutes = handlers(search, {
  findRecords: async ({ q }, ctx) => ({
    status: 'success',
    message: 'Records found',
    result: await findEverywhere(ctx.finders, ctx.db, ctx.me(), q),
  }),
})
