import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

/** Link changes waiting for a second admin (contract/link-changes.ts): open to every signed-in admin, its call lists what they may decide. */
export const screens = declareScreens([{ path: '/link-changes', kind: 'page', component: lazyScreen(() => import('./link-changes-page.tsx'), 'LinkChangesPage') }])
