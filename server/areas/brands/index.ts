/**
 * The brands area: brands, their referral codes and the referral redirect.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as brands from '#contract/brands'
import { defineArea } from '../../kit/request/areas.ts'
import { brandFinders } from './find.ts'
import { brandsRoutes } from './routes.ts'
import { serveReferralRedirect } from './visits.ts'

export const area = defineArea({
  contracts: [{ module: brands, label: 'Brands' }],
  routes: [brandsRoutes],
  find: brandFinders,
  serve: serveReferralRedirect,
})
