/**
 * The catalog area: categories.
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as catalog from '#contract/catalog'
import { defineArea } from '../../kit/areas.ts'
import { categoryFinders } from './find.ts'
import { catalogRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: catalog, label: 'Categories' }],
  routes: [catalogRoutes],
  find: categoryFinders,
})
