/**
 * The access-requests area: access requests: asking for an account from the login page, confirming the address, approval by staff.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as accessRequests from '#contract/access-requests'
import { defineArea } from '../../kit/request/areas.ts'
import { accessRequestRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: accessRequests, label: 'Access requests' }],
  routes: [accessRequestRoutes],
})
