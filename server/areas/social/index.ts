/**
 * The social area: social links.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as social from '#contract/social'
import { defineArea } from '../../kit/request/areas.ts'
import { socialRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: social, label: 'Social links' }],
  routes: [socialRoutes],
})
