/** The palette's search of promotions by title. */
import { promotions } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const promotionFinders = [
  defineFinder({
    screen: '/notificationlist',
    heading: 'Promotions',
    find: async (db, match, limit) =>
      (await db.select({ id: promotions.id, title: promotions.title, status: promotions.status }).from(promotions).where(matching(match, promotions.id, [promotions.title])).limit(limit)).map((p) => ({
        id: p.id,
        label: p.title,
        detail: `Messaging, ${p.status}`,
        search: p.title,
      })),
  }),
]
