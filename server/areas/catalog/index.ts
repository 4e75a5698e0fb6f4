/**
 * The catalog area: categories.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as catalog from '#contract/catalog'
import { defineArea } from '../../kit/request/areas.ts'
import { categoryFinders } from './find.ts'
import { catalogRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: catalog, label: 'Categories' }],
  routes: [catalogRoutes],
  find: categoryFinders,
})
