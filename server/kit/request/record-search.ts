/**
 * The palette's server search: runs every area's finders (server/kit/ground/finders.ts) for one query,
 * for the screens the session may open. Reads only; a few rows per kind, in no particular order
 * (an order would make a broad term read every match: the palette needs a few, not the first few).
 */
import { ilike, inArray, or, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { FOUND_PER_KIND, type FoundRecord } from '#contract/search'
import { reads } from '#contract/define'
import type { Db } from '../../db/index.ts'
import type { AdminRow } from '../../db/schema.ts'
import { permits } from '../ground/access/auth.ts'
import type { Finder, Match } from '../ground/finders.ts'
import { containsPattern } from './paging.ts'

/** A case-insensitive substring of any of `columns`, as the lists search. */
export const containsAny = (term: string, columns: readonly PgColumn[]): SQL | undefined => or(...columns.map((column) => ilike(column, containsPattern(term))))

/**
 * A finder's condition: its id among `ids`, or `byTerm` for a typed term (a case-insensitive
 * substring of those columns, or the area's own search such as the leads').
 */
export const matching = (match: Match, id: PgColumn, byTerm: readonly PgColumn[] | ((term: string) => SQL | undefined)): SQL | undefined =>
  'ids' in match ? inArray(id, [...match.ids]) : typeof byTerm === 'function' ? byTerm(match.term) : containsAny(match.term, byTerm)

type Reader = Pick<AdminRow, 'role' | 'accessLevel' | 'restrictions'>

/** Each finder's few records, for the screens `admin` may open, in the areas' order. */
export async function findEverywhere(finders: readonly Finder[], db: Db, admin: Reader, term: string): Promise<FoundRecord[]> {
  return run(finders, db, admin, { term }, FOUND_PER_KIND)
}

/**
 * The records with these ids that `admin` may read, whatever their kind (ids are unique across
 * tables): how the audit log names the records its rows point at and links to them.
 */
export async function namedRecords(finders: readonly Finder[], db: Db, admin: Reader, ids: readonly string[]): Promise<ReadonlyMap<string, FoundRecord>> {
  const wanted = [...new Set(ids.filter((id) => id !== ''))]
  if (wanted.length === 0) return new Map()
  return new Map((await run(finders, db, admin, { ids: wanted }, wanted.length)).map((r) => [r.id, r]))
}

async function run(finders: readonly Finder[], db: Db, admin: Reader, match: Match, limit: number): Promise<FoundRecord[]> {
  const allowed = finders.filter((f) => permits(reads(f.screen), admin))
  const found = await Promise.all(
    allowed.map(async (f) =>
      (await f.find(db, match, limit)).map(({ search, ...r }) => ({
        ...r,
        screen: f.screen,
        heading: f.heading,
        href: f.page === undefined ? `${f.screen}?search=${encodeURIComponent(search)}` : `${f.page}?id=${encodeURIComponent(r.id)}`,
      })),
    ),
  )
  return found.flat()
}
