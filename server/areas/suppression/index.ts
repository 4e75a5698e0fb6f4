/**
 * The suppression area: the suppressed addresses and the mail provider's events that add to them.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as suppression from '#contract/suppression'
import { defineArea } from '../../kit/request/areas.ts'
import { suppressionFinders } from './find.ts'
import { suppressionRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: suppression, label: 'Suppressed addresses' }],
  routes: [suppressionRoutes],
  find: suppressionFinders,
})
