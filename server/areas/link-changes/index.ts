/**
 * The link changes area: the writes held for a second admin while "Two admins for outward links"
 * is on (contract/link-changes.ts, server/kit/request/link-changes.ts), listed, approved, rejected or withdrawn.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as linkChanges from '#contract/link-changes'
import { defineArea } from '../../kit/request/areas.ts'
import { linkChangeRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: linkChanges, label: 'Link changes' }],
  routes: [linkChangeRoutes],
})
