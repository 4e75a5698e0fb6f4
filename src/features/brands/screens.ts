import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const brandScreens = () => import('./brand-screens.tsx')

/** Brand Tab (requirements R2.23, R2.24): the Brand List, Add and Edit Brand, and View Brand with its referral link. */
export const screens = declareScreens([
  {
    path: '/brand',
    kind: 'page',
    component: lazyScreen(brandScreens, 'BrandListPage'),
    records: paletteRecords('Brands', async () => (await import('./palette.ts')).brands),
  },
  { path: '/addbrand', kind: 'action', component: lazyScreen(brandScreens, 'AddBrandPage') },
  { path: '/edit-brand', kind: 'record', component: lazyScreen(brandScreens, 'EditBrandPage') },
  { path: '/view-brand', kind: 'view', component: lazyScreen(() => import('./view-brand-page.tsx'), 'ViewBrandPage') },
])
