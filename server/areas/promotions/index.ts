/**
 * The promotions area: the messages to leads, their approval and their delivery job.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as promotions from '#contract/promotions'
import { defineArea } from '../../kit/request/areas.ts'
import { promotionFinders } from './find.ts'
import { promotionJobs, promotionsRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: promotions, label: 'Messaging' }],
  routes: [promotionsRoutes],
  find: promotionFinders,
  jobs: promotionJobs,
})
