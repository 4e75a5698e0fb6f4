/**
 * The bulk area: the calls of every list's bulk actions (contract/bulk.ts). The machinery is the
 * kit's (server/kit/request/bulk.ts), since each list's area declares its rows there; this area only
 * serves the calls and runs the job.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as bulk from '#contract/bulk'
import { defineArea } from '../../kit/request/areas.ts'
import { bulkJobs, bulkRoutes } from '../../kit/request/bulk.ts'

export const area = defineArea({
  contracts: [{ module: bulk, label: 'Bulk actions' }],
  routes: [bulkRoutes],
  jobs: bulkJobs,
})
