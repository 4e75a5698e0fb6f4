import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

/** Messaging and Add Promotion (requirements R2.19, R2.20); the palette finds cached promotions by title. */
export const screens = declareScreens([
  {
    path: '/notificationlist',
    kind: 'page',
    component: lazyScreen(() => import('./promotion-list.tsx'), 'PromotionListPage'),
    records: paletteRecords('Promotions', async () => (await import('./palette.ts')).promotions),
  },
  { path: '/addnotification', kind: 'action', component: lazyScreen(() => import('./add-promotion-page.tsx'), 'AddPromotionPage') },
])
