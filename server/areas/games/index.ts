/**
 * The games area: games.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as games from '#contract/games'
import { defineArea } from '../../kit/request/areas.ts'
import { gameFinders } from './find.ts'
import { gamesRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: games, label: 'Games' }],
  routes: [gamesRoutes],
  find: gameFinders,
})
