/** The palette's search of games by title. */
import { eq } from 'drizzle-orm'
import { categories, games } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const gameFinders = [
  defineFinder({
    screen: '/cms',
    heading: 'Games',
    find: async (db, match, limit) =>
      (
        await db
          .select({ id: games.id, title: games.title, category: categories.categoryName })
          .from(games)
          .innerJoin(categories, eq(categories.id, games.categoryId))
          .where(matching(match, games.id, [games.title]))
          .limit(limit)
      ).map((g) => ({ id: g.id, label: g.title, detail: `${g.category}, Game ID ${g.id}`, search: g.title })),
  }),
]
