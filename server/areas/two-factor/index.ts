/**
 * The two-factor area: two-factor authentication for the signed-in admin.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as twoFactor from '#contract/two-factor'
import { defineArea } from '../../kit/request/areas.ts'
import { twofaRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: twoFactor, label: 'Two-factor authentication' }],
  routes: [twofaRoutes],
})
