/**
 * The emails area: the automated emails' templates and their versions.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as emails from '#contract/emails'
import { defineArea } from '../../kit/request/areas.ts'
import { emailRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: emails, label: 'Automated Emails' }],
  routes: [emailRoutes],
})
