import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

/** The dashboard (ours, requirements R1.3): open to every signed-in admin, first in the menu. */
export const screens = declareScreens([
  { path: '/dashboard', kind: 'page', component: lazyScreen(() => import('./dashboard-page.tsx'), 'DashboardPage') },
])
