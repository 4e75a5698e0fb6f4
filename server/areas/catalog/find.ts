/** The palette's search of categories by name. */
import { categories } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const categoryFinders = [
  defineFinder({
    screen: '/category',
    heading: 'Categories',
    find: async (db, match, limit) =>
      (await db.select({ id: categories.id, name: categories.categoryName }).from(categories).where(matching(match, categories.id, [categories.categoryName])).limit(limit)).map((c) => ({
        id: c.id,
        label: c.name,
        detail: `Category ID ${c.id}`,
        search: c.name,
      })),
  }),
]
