/**
 * The dashboard area: the dashboard's cards.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as dashboard from '#contract/dashboard'
import { defineArea } from '../../kit/request/areas.ts'
import { dashboardRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: dashboard, label: 'Dashboard' }],
  routes: [dashboardRoutes],
})
