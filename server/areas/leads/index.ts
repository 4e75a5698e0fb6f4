/**
 * The leads area: leads and contact enquiries, with the CSV export.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as leads from '#contract/leads'
import { defineArea } from '../../kit/request/areas.ts'
import { leadFinders } from './find.ts'
import { leadsRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: leads, label: 'Leads' }],
  routes: [leadsRoutes],
  find: leadFinders,
})
