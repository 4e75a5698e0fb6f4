/** The palette's search of brands by name. */
import { brands } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const brandFinders = [
  defineFinder({
    screen: '/brand',
    heading: 'Brands',
    find: async (db, match, limit) =>
      (await db.select({ id: brands.id, name: brands.brandname, type: brands.type }).from(brands).where(matching(match, brands.id, [brands.brandname])).limit(limit)).map((b) => ({
        id: b.id,
        label: b.name,
        detail: `Brand, ${b.type}`,
        search: b.name,
      })),
  }),
]
