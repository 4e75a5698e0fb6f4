/**
 * The audit area: the staff audit log's reads and export.
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as audit from '#contract/audit'
import { defineArea } from '../../kit/areas.ts'
import { auditRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: audit, label: 'Audit Log' }],
  routes: [auditRoutes],
})
