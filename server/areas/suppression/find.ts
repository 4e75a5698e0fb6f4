/** The palette's search of suppressed addresses by address. */
import { suppressedAddresses } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const suppressionFinders = [
  defineFinder({
    screen: '/suppressed-addresses',
    heading: 'Suppressed addresses',
    find: async (db, match, limit) =>
      (
        await db
          .select({ address: suppressedAddresses.address, reason: suppressedAddresses.reason })
          .from(suppressedAddresses)
          .where(matching(match, suppressedAddresses.address, [suppressedAddresses.address]))
          .limit(limit)
      ).map((s) => ({ id: s.address, label: s.address, detail: `Suppressed, ${s.reason}`, search: s.address })),
  }),
]
