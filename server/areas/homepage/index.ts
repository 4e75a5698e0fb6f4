/**
 * The homepage area: the home page content.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as homepage from '#contract/homepage'
import { defineArea } from '../../kit/request/areas.ts'
import { homepageRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: homepage, label: 'Home Page Content' }],
  routes: [homepageRoutes],
})
