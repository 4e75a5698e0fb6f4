import { categoriesBulk } from '#contract/bulk'
import { deleteCategory, listCategory } from '#contract/catalog'
import { col, image, mono } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'

/** Category List (/category): requirements R2.12; add, edit and delete for Admin only. */
export const CategoryListPage = defineList({
  title: 'Category List',
  empty: { says: 'Categories group the games users browse, each with its image.', addFirst: 'Create the first category' },
  endpoint: listCategory,
  columns: [col('categoryName', 'Category Name'), mono('_id', 'Category ID'), image('image', 'Image', 'categoryName', 'thumbnail')],
  add: { to: '/add-category', label: 'Add Category' },
  edit: '/edit-category',
  remove: { endpoint: deleteCategory, confirm: 'Are you sure you want to remove this Category' },
  serverBulk: categoriesBulk,
})
