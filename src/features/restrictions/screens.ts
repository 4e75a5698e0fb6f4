import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const list = () => import('./restriction-list.tsx')

/** Restriction List and Add Restriction (requirements R2.25, R2.26); the palette finds restricted countries. */
export const screens = declareScreens([
  {
    path: '/restriction',
    kind: 'page',
    component: lazyScreen(list, 'RestrictionListPage'),
    records: paletteRecords('Restricted countries', async () => (await import('./palette.ts')).countries),
  },
  { path: '/add-restriction', kind: 'action', component: lazyScreen(() => import('./add-restriction.tsx'), 'AddRestrictionPage') },
])
