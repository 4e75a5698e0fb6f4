import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const forms = () => import('./game-form.tsx')

/** Games (requirements R2.14) with Add Games and Edit Games. */
export const screens = declareScreens([
  {
    path: '/cms',
    kind: 'page',
    component: lazyScreen(() => import('./game-list.tsx'), 'GameListPage'),
    records: paletteRecords('Games', async () => (await import('./palette.ts')).games),
  },
  { path: '/add-cms', kind: 'action', component: lazyScreen(forms, 'AddGamePage') },
  { path: '/edit-cms', kind: 'record', component: lazyScreen(forms, 'EditGamePage') },
])
