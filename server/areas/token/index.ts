/**
 * The token area: the edit token.
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as token from '#contract/token'
import { defineArea } from '../../kit/areas.ts'
import { tokenRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: token, label: 'Edit Token' }],
  routes: [tokenRoutes],
})
