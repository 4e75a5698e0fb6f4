/**
 * The undo area: undoing a delete or a cleared value. The trash itself is the kit's
 * (server/kit/request/undo.ts), since every area's deletes go through it; this area only serves its calls.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as undo from '#contract/undo'
import { defineArea } from '../../kit/request/areas.ts'
import { undoJobs, undoRoutes } from '../../kit/request/undo.ts'

export const area = defineArea({
  contracts: [{ module: undo, label: 'Undo' }],
  routes: [undoRoutes],
  jobs: undoJobs,
})
