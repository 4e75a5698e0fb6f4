import { declareScreens, lazyScreen } from '#src/crud/screens.ts'

/**
 * Edit Token (spec section 2): a write page, a child of Games (contract/routes.ts), so it is an
 * Admin action in the palette, and View Only staff who open it go back to Games.
 */
export const screens = declareScreens([{ path: '/edit-token', kind: 'action', component: lazyScreen(() => import('./edit-token-page.tsx'), 'EditTokenPage') }])
