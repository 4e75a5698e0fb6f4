import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const suppressionScreens = () => import('./suppression-screens.tsx')

/** Suppressed addresses and Add Suppressed Address; the palette finds cached entries by address. */
export const screens = declareScreens([
  {
    path: '/suppressed-addresses',
    kind: 'page',
    component: lazyScreen(suppressionScreens, 'SuppressedAddressesPage'),
    records: paletteRecords('Suppressed addresses', async () => (await import('./palette.ts')).suppressed),
  },
  { path: '/add-suppressed-address', kind: 'action', component: lazyScreen(suppressionScreens, 'AddSuppressedAddressPage') },
])
