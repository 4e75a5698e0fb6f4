/**
 * The password area: the forgot-password flow (one-time codes by mail) and changing one's password.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as password from '#contract/password'
import { defineArea } from '../../kit/request/areas.ts'
import { passwordRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: password, label: 'Passwords' }],
  routes: [passwordRoutes],
})
