import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

/**
 * Edit Token (requirements R2.16), the game ticket product sold in the app ("token" in the requirements and
 * the contract; not the session's token): a write page, a child of Games (contract/routes.ts), so it is an
 * Admin action in the palette, and View Only staff who open it go back to Games.
 */
export const screens = declareScreens([{ path: '/edit-token', kind: 'action', component: lazyScreen(() => import('./edit-ticket-product-page.tsx'), 'EditTicketProductPage') }])
