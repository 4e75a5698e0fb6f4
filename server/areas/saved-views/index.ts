/**
 * The saved-views area: each admin's saved list views.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as savedViews from '#contract/saved-views'
import { defineArea } from '../../kit/request/areas.ts'
import { savedViewRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: savedViews, label: 'Saved views' }],
  routes: [savedViewRoutes],
})
