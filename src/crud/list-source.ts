/**
 * Where a list's rows come from. Most lists are paged by the server (`page`, `limit`, `search` in,
 * `result` + `count` out); a few calls answer the whole list at once (the restricted countries are
 * one record holding every entry, spec section 3). Those are paged and searched here, on the
 * client, with the same URL state, S.No, pager and "No Record Found" as any list, and, since every
 * row is known, a Select All that reaches past the visible page.
 */
import { useMemo } from 'react'
import type { Endpoint, Input, Output } from '#contract/define'
import type { ApiError } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import type { ListQuery } from './list-query.ts'
import { rowsOf, type ListEndpoint, type Row } from './list-types.ts'

/** One page of a list as the list page shows it. */
export interface ListRows<R> {
  /** undefined while the first answer loads. */
  rows: R[] | undefined
  count: number | undefined
  /** Every row the search matches, on every page; only a whole-list source knows them. */
  allRows: R[] | undefined
  error: ApiError | undefined
  isLoading: boolean
  isValidating: boolean
  retry: () => void
}

export interface ListSource<R> {
  /** A hook: the page of `query`, narrowed by the list's declared filters (list-filters.tsx) when it has any. */
  useRows(query: ListQuery, filters?: Readonly<Record<string, string>>): ListRows<R>
}

export const isListSource = <R>(v: ListEndpoint<R> | ListSource<R>): v is ListSource<R> => 'useRows' in v

/** A list call paged by the server. */
export function pagedSource<R>(endpoint: ListEndpoint<R>): ListSource<R> {
  return {
    useRows(query, filters) {
      const { data, error, isLoading, isValidating, mutate } = useCall(endpoint, { ...filters, ...query }, { keepPreviousData: true })
      return { rows: data ? rowsOf(data) : undefined, count: data?.count, allRows: undefined, error, isLoading, isValidating, retry: () => void mutate() }
    },
  }
}

/** The rows of `all` whose text contains the search (case-insensitive), then the page of `query`. */
export function pageOfAll<R extends Row>(all: readonly R[], query: ListQuery, text: (row: R) => string): { rows: R[]; count: number; allRows: R[] } {
  const needle = query.search.trim().toLocaleLowerCase()
  const matching = needle === '' ? [...all] : all.filter((row) => text(row).toLocaleLowerCase().includes(needle))
  const start = (query.page - 1) * query.limit
  return { rows: matching.slice(start, start + query.limit), count: matching.length, allRows: matching }
}

/**
 * A call that answers the whole list: `pick` finds the rows in its answer, `text` is what the
 * search box searches in a row.
 */
export function wholeListSource<E extends Endpoint, R extends Row>(endpoint: E, input: Input<E>, pick: (answer: Output<E>) => R[], text: (row: NoInfer<R>) => string): ListSource<R> {
  return {
    useRows(query) {
      const { data, error, isLoading, isValidating, mutate } = useCall(endpoint, input, { keepPreviousData: true })
      const all = useMemo(() => (data === undefined ? undefined : pick(data)), [data])
      const page = useMemo(() => (all === undefined ? undefined : pageOfAll(all, query, text)), [all, query])
      return { rows: page?.rows, count: page?.count, allRows: page?.allRows, error, isLoading, isValidating, retry: () => void mutate() }
    },
  }
}
