/**
 * The brands area: brands and their referral codes.
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as brands from '#contract/brands'
import { defineArea } from '../../kit/areas.ts'
import { brandsRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: brands, label: 'Brands' }],
  routes: [brandsRoutes],
})
