/**
 * The undo area: undoing a delete or a cleared value. The trash itself is the kit's
 * (server/kit/undo.ts), since every area's deletes go through it; this area only serves its calls.
 * Found by server/kit/areas.ts; the declaration is this area's one registration.
 */
import * as undo from '#contract/undo'
import { defineArea } from '../../kit/areas.ts'
import { undoJobs, undoRoutes } from '../../kit/undo.ts'

export const area = defineArea({
  contracts: [{ module: undo, label: 'Undo' }],
  routes: [undoRoutes],
  jobs: undoJobs,
})
