/**
 * The public area: the public pages' reads (no session).
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as publicPages from '#contract/public'
import { defineArea } from '../../kit/areas.ts'
import { publicRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: publicPages, label: 'Public pages' }],
  routes: [publicRoutes],
})
