import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([{ path: '/settings', kind: 'page', component: lazyScreen(() => import('./settings-page.tsx'), 'SettingsPage') }])
