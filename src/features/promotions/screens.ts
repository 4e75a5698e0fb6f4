import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

/** Messaging and Add Promotion (spec section 2); the palette finds cached promotions by title. */
export const screens = declareScreens([
  {
    path: '/notificationlist',
    kind: 'page',
    component: lazyScreen(() => import('./promotion-list.tsx'), 'PromotionListPage'),
    records: paletteRecords('Promotions', async () => (await import('#contract/promotions')).listNotification, (answer) =>
      answer.result.map((p) => ({ id: p._id, label: p.title, detail: `Messaging, ${p.sent} of ${p.total} sent`, href: withSearch('/notificationlist', p.title) })),
    ),
  },
  { path: '/addnotification', kind: 'action', component: lazyScreen(() => import('./add-promotion-page.tsx'), 'AddPromotionPage') },
])
