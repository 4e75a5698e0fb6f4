/**
 * The restrictions area: restricted countries.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as restrictions from '#contract/restrictions'
import { defineArea } from '../../kit/request/areas.ts'
import { restrictionRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: restrictions, label: 'Restricted countries' }],
  routes: [restrictionRoutes],
})
