import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const formChunk = () => import('./homepage-form.tsx')

/** Home Page Content (requirements R2.30, R2.31): the list, its Add page and its Edit page. */
export const screens = declareScreens([
  {
    path: '/homepage-content',
    kind: 'page',
    component: lazyScreen(() => import('./homepage-list.tsx'), 'HomepageContentPage'),
    records: paletteRecords('Home page content', async () => (await import('./palette.ts')).contents),
  },
  { path: '/add-homepage-content', kind: 'action', component: lazyScreen(formChunk, 'AddHomepageContentPage') },
  { path: '/edit-homepage-content', kind: 'record', component: lazyScreen(formChunk, 'EditHomepageContentPage') },
])
