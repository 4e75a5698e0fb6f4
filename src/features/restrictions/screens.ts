import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

const list = () => import('./restriction-list.tsx')

/** Restriction List and Add Restriction (spec section 2); the palette finds restricted countries. */
export const screens = declareScreens([
  {
    path: '/restriction',
    kind: 'page',
    component: lazyScreen(list, 'RestrictionListPage'),
    records: paletteRecords('Restricted countries', async () => (await import('#contract/restrictions')).FetchRestrictions, (answer) =>
      (answer.result[0]?.Restrictedcountry ?? []).map((c) => ({
        id: c._id,
        label: c.country,
        detail: c.hide ? 'Restriction List, hidden' : 'Restriction List',
        href: withSearch('/restriction', c.country),
      })),
    ),
  },
  { path: '/add-restriction', kind: 'action', component: lazyScreen(() => import('./add-restriction.tsx'), 'AddRestrictionPage') },
])
