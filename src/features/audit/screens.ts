import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

/** The staff audit log: a page of its own, granted like any other. */
export const screens = declareScreens([{ path: '/audit', kind: 'page', component: lazyScreen(() => import('./audit-page.tsx'), 'AuditPage') }])
