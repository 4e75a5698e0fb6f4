/**
 * The public area: the public pages' reads (no session).
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as publicPages from '#contract/public'
import { defineArea } from '../../kit/request/areas.ts'
import { publicRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: publicPages, label: 'Public pages' }],
  routes: [publicRoutes],
})
