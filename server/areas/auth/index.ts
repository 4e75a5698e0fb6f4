/**
 * The auth area: login, logout, the activity report and the signed-in admin's own profile.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as auth from '#contract/auth'
import { defineArea } from '../../kit/request/areas.ts'
import { authRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: auth, label: 'Sign-in' }],
  routes: [authRoutes],
})
