/**
 * The search area: the command palette's one call that finds records of every area.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as search from '#contract/search'
import { defineArea } from '../../kit/request/areas.ts'
import { searchRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: search, label: 'Search' }],
  routes: [searchRoutes],
})
