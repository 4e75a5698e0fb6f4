/**
 * The audit area: the staff audit log's reads and export.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as audit from '#contract/audit'
import { defineArea } from '../../kit/request/areas.ts'
import { auditRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: audit, label: 'Audit Log' }],
  routes: [auditRoutes],
})
