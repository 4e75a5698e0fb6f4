/**
 * The staff area: users and access: sub-admins, their access and their sessions.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as staff from '#contract/staff'
import { defineArea } from '../../kit/request/areas.ts'
import { staffFinders } from './find.ts'
import { staffRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: staff, label: 'Users and Access' }],
  routes: [staffRoutes],
  find: staffFinders,
})
