/** The palette's search of the three kinds of link, each on its own list, by the link itself. */
import { and, eq } from 'drizzle-orm'
import type { ScreenPath } from '#contract/routes'
import { links } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

const KINDS = [
  { kind: 'buy', screen: '/buy_list', heading: 'Buy links', list: 'Buy List' },
  { kind: 'sell', screen: '/swapout_list', heading: 'Swap out links', list: 'Swap Out List' },
  { kind: 'bridge', screen: '/swapin_list', heading: 'Swap in links', list: 'Swap in List' },
] as const satisfies readonly { kind: (typeof links.kind.enumValues)[number]; screen: ScreenPath; heading: string; list: string }[]

export const linkFinders = KINDS.map(({ kind, screen, heading, list }) =>
  defineFinder({
    screen,
    heading,
    find: async (db, match, limit) =>
      (await db.select({ id: links.id, url: links.url, preference: links.preference }).from(links).where(and(eq(links.kind, kind), matching(match, links.id, [links.url]))).limit(limit)).map((l) => ({
        id: l.id,
        label: l.url,
        detail: `${list}, preference ${l.preference}`,
        search: l.url,
      })),
  }),
)
