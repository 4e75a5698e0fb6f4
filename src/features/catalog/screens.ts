import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

export const screens = declareScreens([
  {
    path: '/category',
    kind: 'page',
    component: lazyScreen(() => import('./category-list.tsx'), 'CategoryListPage'),
    records: paletteRecords('Categories', async () => (await import('#contract/catalog')).listCategory, (answer) =>
      answer.result.map((c) => ({ id: c._id, label: c.categoryName, detail: `Category ID ${c._id}`, href: withSearch('/category', c.categoryName) })),
    ),
  },
  { path: '/add-category', kind: 'action', component: lazyScreen(() => import('./category-form.tsx'), 'AddCategoryPage') },
  { path: '/edit-category', kind: 'record', component: lazyScreen(() => import('./category-form.tsx'), 'EditCategoryPage') },
])
