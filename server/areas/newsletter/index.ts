/**
 * The newsletter area: writing the newsletter, its four-eyes approval, the paced feeder job, and unsubscribing.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as newsletter from '#contract/newsletter'
import { defineArea } from '../../kit/request/areas.ts'
import { newsletterJobs } from './feeder.ts'
import { newsletterRoutes } from './routes.ts'
import { newsletterStartJobs } from './scheduled.ts'
import { oneClickUnsubscribe, unsubscribeRoutes } from './unsubscribe.ts'

export const area = defineArea({
  contracts: [{ module: newsletter, label: 'Newsletter' }],
  routes: [newsletterRoutes, unsubscribeRoutes],
  jobs: [...newsletterJobs, ...newsletterStartJobs],
  // RFC 8058 one-click unsubscribing: a POST to the unsubscribe page's address, outside the API.
  serve: (app, services) => oneClickUnsubscribe(app, services.handle.db, services.config),
})
