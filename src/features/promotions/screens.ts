import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

/** Messaging and Add Promotion (spec section 2); the palette finds cached promotions by title. */
export const screens = declareScreens([
  {
    path: '/notificationlist',
    kind: 'page',
    component: lazyScreen(() => import('./promotion-list.tsx'), 'PromotionListPage'),
    records: paletteRecords('Promotions', async () => (await import('#contract/promotions')).listNotification, (answer) =>
      answer.result.map((p) => ({
        id: p._id,
        label: p.title,
        detail: `Messaging, ${p.sent} of ${p.total} sent`,
        href: withSearch('/notificationlist', p.title),
        // Resend to everyone, as the list's plain Resend; `round` makes a repeat start nothing.
        actions: [
          {
            label: 'Resend promotion',
            run: async () => {
              const [{ ResendData }, { call }] = await Promise.all([import('#contract/promotions'), import('#src/lib/api.ts')])
              const answer = await call(ResendData, { id: p._id, round: p.round, only: 'all' })
              if (answer.awaitingApproval) return { message: `${p.title}: ${answer.message}` }
              return { message: answer.started ? `${p.title}: resending to ${answer.total}` : `${p.title} is already being resent` }
            },
          },
        ],
      })),
    ),
  },
  { path: '/addnotification', kind: 'action', component: lazyScreen(() => import('./add-promotion-page.tsx'), 'AddPromotionPage') },
])
