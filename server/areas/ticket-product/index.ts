/**
 * The ticket product area: Edit Token (/edit-token), the game ticket product the requirements call a
 * token; "token" elsewhere in the code is a session's.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as ticketProduct from '#contract/ticket-product'
import { defineArea } from '../../kit/request/areas.ts'
import { ticketProductRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: ticketProduct, label: 'Edit Token' }],
  routes: [ticketProductRoutes],
})
