/**
 * The list state every table keeps in the URL query (`?page=2&limit=20&search=ann&sortBy=name&sortOrder=desc`),
 * so that a reload, a shared link, a saved view or the back button shows the same page. Pure
 * functions, tested beside.
 */
import type { ListSort, SortOrder } from '#contract/common'

/** Page sizes the menu offers (requirements R9.1). */
export const PAGE_SIZES = [10, 20, 50] as const

/** A list's chosen order: one of its sortable columns, and the direction. */
export interface SortState {
  by: string
  order: SortOrder
}

export interface ListQuery {
  page: number
  limit: number
  search: string
  /** The order chosen by a header; undefined for the list's own default order. */
  sort?: SortState | undefined
}

/**
 * The sort in a query string, when it names one of the list's columns (anything else is the
 * default order, as a malformed page is page 1).
 */
function readSort(params: URLSearchParams, sort: ListSort | undefined): SortState | undefined {
  const by = params.get('sortBy')
  if (by === null || sort === undefined || !sort.columns.includes(by)) return undefined
  return { by, order: params.get('sortOrder') === 'desc' ? 'desc' : 'asc' }
}

/** The order a table shows as chosen: the query's, else the list's default when it is a column. */
export const shownSort = (query: ListQuery, sort: ListSort | undefined): SortState | undefined => query.sort ?? sort?.initial

/**
 * The order after a click on a column's header: that column's other direction when it is the
 * shown order, else that column ascending; undefined when that is the list's default order (the
 * URL stays plain).
 */
export function nextSort(query: ListQuery, sort: ListSort | undefined, by: string): SortState | undefined {
  const shown = shownSort(query, sort)
  const next: SortState = shown?.by === by ? { by, order: shown.order === 'asc' ? 'desc' : 'asc' } : { by, order: 'asc' }
  return sort?.initial?.by === next.by && sort.initial.order === next.order ? undefined : next
}

const positiveInt = (raw: string | null): number | null => {
  if (raw === null || !/^\d{1,7}$/.test(raw)) return null
  const n = Number(raw)
  return n >= 1 ? n : null
}

/**
 * Reads page, limit and search from a query string. Anything malformed falls back to the
 * defaults instead of failing: a hand-edited URL must still show a list. A limit outside the
 * menu is kept only if it is the screen's own default (leads use 50).
 */
export function readListQuery(search: string, defaultLimit: number, sort?: ListSort): ListQuery {
  const params = new URLSearchParams(search)
  const limit = positiveInt(params.get('limit'))
  const allowed: readonly number[] = PAGE_SIZES
  const chosen = readSort(params, sort)
  return {
    page: positiveInt(params.get('page')) ?? 1,
    limit: limit !== null && (allowed.includes(limit) || limit === defaultLimit) ? limit : defaultLimit,
    search: (params.get('search') ?? '').slice(0, 200),
    ...(chosen === undefined ? {} : { sort: chosen }),
  }
}

/**
 * Writes the list state back into a query string, keeping unrelated parameters and leaving out
 * the defaults so that the plain screen URL stays plain.
 */
export function writeListQuery(search: string, next: ListQuery, defaultLimit: number): string {
  const params = new URLSearchParams(search)
  const set = (key: string, value: string, isDefault: boolean) => {
    if (isDefault) params.delete(key)
    else params.set(key, value)
  }
  set('page', String(next.page), next.page === 1)
  set('limit', String(next.limit), next.limit === defaultLimit)
  set('search', next.search, next.search === '')
  set('sortBy', next.sort?.by ?? '', next.sort === undefined)
  set('sortOrder', next.sort?.order ?? '', next.sort === undefined)
  const out = params.toString()
  return out === '' ? '' : `?${out}`
}

/**
 * Requirements R4.10: when the page size is at least the total count, the page goes back to 1. Also
 * pulls a page past the end back to the last page (after deleting the last row of a page).
 */
export function settlePage(page: number, limit: number, count: number): number {
  if (limit >= count) return 1
  const last = Math.max(1, Math.ceil(count / limit))
  return Math.min(page, last)
}

/** Number of pages for a count; at least 1 so "Page 1 of 1" reads right on an empty list. */
export const pageCount = (limit: number, count: number): number => Math.max(1, Math.ceil(count / limit))

/**
 * The page numbers to show as buttons: first, last, and a window around the current page, with
 * `null` where a gap is elided. Keeps the pager short on lists with thousands of pages.
 */
export function pageWindow(page: number, pages: number, radius = 1): (number | null)[] {
  const wanted = new Set<number>([1, pages])
  for (let p = page - radius; p <= page + radius; p++) if (p >= 1 && p <= pages) wanted.add(p)
  const sorted = [...wanted].sort((a, b) => a - b)
  const out: (number | null)[] = []
  let previous = 0
  for (const p of sorted) {
    if (p - previous === 2) out.push(p - 1)
    else if (p - previous > 2) out.push(null)
    out.push(p)
    previous = p
  }
  return out
}

/** 1-based serial number of a row, continuing across pages (the S.No column of requirements R2). */
export const serialNumber = (query: Pick<ListQuery, 'page' | 'limit'>, index: number): number =>
  (query.page - 1) * query.limit + index + 1
