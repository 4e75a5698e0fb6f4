import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([{ path: '/version', kind: 'page', component: lazyScreen(() => import('./version-page.tsx'), 'VersionPage') }])
