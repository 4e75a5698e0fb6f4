/**
 * How an area's records are found by the palette's server search (contract/search.ts,
 * `findRecords`): each area declares its finders (`find` in its defineArea); server/kit/request/record-search.ts
 * runs them. Types only here, so the request kit can name them without importing the search.
 */
import type { FoundRecord } from '#contract/search'
import type { ScreenPath } from '#contract/routes'
import type { Db } from '../../db/index.ts'

/** What a finder looks for: records matching a typed term (the palette), or exactly these ids (the audit log's names). */
export type Match = { term: string } | { ids: readonly string[] }

/** A record found: how the palette shows it, and the list search that shows it on its screen. */
export type Found = Omit<FoundRecord, 'screen' | 'heading' | 'href'> & { search: string }

export interface Finder {
  /** The list screen the records are on: found only for sessions that may open it. */
  screen: ScreenPath
  /** The palette's group heading, as the PWA's cached records of that screen use. */
  heading: string
  /** A page of each record's own (`?id=`); without one, a record opens as its list searched for it. */
  page?: ScreenPath
  /** At most `limit` records matching `match` (build its condition with `matching`), in no particular order. */
  find: (db: Db, match: Match, limit: number) => Promise<Found[]>
}

export const defineFinder = (finder: Finder): Finder => finder
