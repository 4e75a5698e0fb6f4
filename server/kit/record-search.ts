/**
 * The palette's server search: runs every area's finders (server/kit/finders.ts) for one query,
 * for the screens the session may open. Reads only; a few rows per kind, in no particular order
 * (an order would make a broad term read every match: the palette needs a few, not the first few).
 */
import { ilike, or, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { FOUND_PER_KIND, type FoundRecord } from '#contract/search'
import { reads } from '#contract/define'
import type { Db } from '../db/index.ts'
import type { AdminRow } from '../db/schema.ts'
import { permits } from './access/auth.ts'
import type { Finder } from './finders.ts'
import { containsPattern } from './paging.ts'

/** A case-insensitive substring of any of `columns`, as the lists search. */
export const containsAny = (term: string, columns: readonly PgColumn[]): SQL | undefined => or(...columns.map((column) => ilike(column, containsPattern(term))))

/** Each finder's few records, for the screens `admin` may open, in the areas' order. */
export async function findEverywhere(finders: readonly Finder[], db: Db, admin: Pick<AdminRow, 'role' | 'accessLevel' | 'restrictions'>, term: string): Promise<FoundRecord[]> {
  const allowed = finders.filter((f) => permits(reads(f.screen), admin))
  const found = await Promise.all(
    allowed.map(async (f) =>
      (await f.find(db, term, FOUND_PER_KIND)).map(({ search, ...r }) => ({
        ...r,
        screen: f.screen,
        heading: f.heading,
        href: f.page === undefined ? `${f.screen}?search=${encodeURIComponent(search)}` : `${f.page}?id=${encodeURIComponent(r.id)}`,
      })),
    ),
  )
  return found.flat()
}
