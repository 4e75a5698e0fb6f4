import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([
  {
    path: '/category',
    kind: 'page',
    component: lazyScreen(() => import('./category-list.tsx'), 'CategoryListPage'),
    records: paletteRecords('Categories', async () => (await import('./palette.ts')).categories),
  },
  { path: '/add-category', kind: 'action', component: lazyScreen(() => import('./category-form.tsx'), 'AddCategoryPage') },
  { path: '/edit-category', kind: 'record', component: lazyScreen(() => import('./category-form.tsx'), 'EditCategoryPage') },
])
