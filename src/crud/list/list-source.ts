/**
 * Where a list's rows come from. Most lists are paged by the server (`page`, `limit`, `search`,
 * `sortBy`, `sortOrder` in, `result` + `count` out); a few calls answer the whole list at once (the
 * restricted countries are one record holding every entry, requirements R3.11). Those are paged,
 * searched and sorted here, on the client, with the same URL state, S.No, pager and "No Record
 * Found" as any list, and, since every row is known, a Select All that reaches past the visible page.
 */
import { useEffect, useMemo, useState } from 'react'
import { useSWRConfig } from 'swr'
import type { z } from 'zod/mini'
import type { Endpoint, Input, Output } from '#contract/define'
import { call } from '#src/lib/api.ts'
import { onRealtime } from '#src/lib/realtime-events.ts'
import { useCall } from '#src/lib/use-call.ts'
import type { ListQuery } from './list-query.ts'
import { rowsOf, type CountEndpoint, type ListEndpoint, type ListSource, type LiveDef, type Paged, type Row } from './list-types.ts'

export type { ListRows, ListSource } from './list-types.ts'

export const isListSource = <R>(v: ListEndpoint<R> | ListSource<R>): v is ListSource<R> => 'useRows' in v

/** How often a page whose rows are still changing is fetched again when no event comes (the socket may be down). */
export const LIVE_POLL_MS = 5000

/**
 * Rows updated by a server event: `schema` parses the payload once, `apply` makes the row it
 * concerns (undefined for the others).
 *
 *     live(SocketEvents.promotionProgress, PromotionProgress, (row, p) => (p.id === row._id ? { ...row, ...p } : undefined))
 */
export function live<R, U>(event: string, schema: z.ZodMiniType<U>, apply: (row: R, update: U) => R | undefined, pollWhile?: (row: R) => boolean): LiveDef<R> {
  return {
    event,
    update: (payload) => {
      const parsed = schema.safeParse(payload)
      return parsed.success ? (row) => apply(row, parsed.data) : null
    },
    ...(pollWhile === undefined ? {} : { pollWhile }),
  }
}

/** The page with the rows `change` updates replaced; the same object when none changed (no re-render). */
export function patchPage<R, P extends Paged<R>>(page: P, change: (row: R) => R | undefined): P {
  const rows = rowsOf(page)
  let changed = false
  const next = rows.map((row) => {
    const updated = change(row)
    if (updated === undefined) return row
    changed = true
    return updated
  })
  if (!changed) return page
  return 'result' in page ? { ...page, result: next } : { ...page, data: next }
}

/** The list call's input for a query: page, limit, search, and the sort when one is chosen. */
export function listInput(query: ListQuery): { page: number; limit: number; search: string; sortBy?: string; sortOrder?: 'asc' | 'desc' } {
  const { page, limit, search, sort } = query
  return sort === undefined ? { page, limit, search } : { page, limit, search, sortBy: sort.by, sortOrder: sort.order }
}

/**
 * The count of a page answered without it (count null), asked of the list's count call and
 * written into that very answer in the cache: the pager shows it with those rows only, never with
 * another search's, and offline the cached page keeps it. `counting` until then.
 */
function useLaterCount<R>(
  countEndpoint: CountEndpoint | undefined,
  key: readonly [string, unknown],
  countInput: { search: string },
  page: { data: Paged<R> | undefined; lagging: boolean },
): { counting: boolean; countFailed: boolean; retryCount: () => void } {
  const { mutate } = useSWRConfig()
  const [failed, setFailed] = useState<Paged<R> | null>(null)
  const [attempt, setAttempt] = useState(0)
  const { data, lagging } = page
  // Asked only for the answer of the query shown: a previous query's page kept on screen while
  // the new one loads (keepPreviousData) is not this query's to count.
  const wanted = countEndpoint !== undefined && data !== undefined && data.count === null && !lagging ? data : null
  // The list call's key and the count's input, as text: they change with `wanted`, not at every render.
  const asked = JSON.stringify({ key, countInput })
  useEffect(() => {
    if (wanted === null || countEndpoint === undefined) return
    const { key: at, countInput: input } = JSON.parse(asked) as { key: [string, unknown]; countInput: { search: string } }
    let live = true
    call(countEndpoint, input).then(
      ({ count }) => {
        // Into the cached answer the count was asked for, if it is still that answer (a refetch
        // since then brought a count of its own, or asks again).
        void mutate(at, (current: Paged<R> | undefined) => (current === wanted ? { ...current, count } : current), { revalidate: false })
      },
      () => {
        if (live) setFailed(wanted)
      },
    )
    return () => {
      live = false
    }
  }, [wanted, asked, attempt, countEndpoint, mutate])
  const countFailed = wanted !== null && failed === wanted
  return {
    counting: wanted !== null && !countFailed,
    countFailed,
    retryCount: () => {
      setFailed(null)
      setAttempt((n) => n + 1)
    },
  }
}

/**
 * A list call paged by the server; with `liveRows`, server events update the shown rows in place.
 * With `countEndpoint`, the list asks for its rows first (count 'later') and its count by that call.
 */
export function pagedSource<R>(endpoint: ListEndpoint<R>, liveRows?: LiveDef<R>, countEndpoint?: CountEndpoint): ListSource<R> {
  const pollWhile = liveRows?.pollWhile
  return {
    sort: endpoint.sort,
    useRows(query, filters) {
      const input = { ...filters, ...listInput(query), ...(countEndpoint === undefined ? {} : { count: 'later' }) }
      const { data, error, isLoading, isValidating, mutate } = useCall(endpoint, input, {
        keepPreviousData: true,
        ...(pollWhile ? { poll: { ms: LIVE_POLL_MS, when: (latest: Paged<R>) => rowsOf(latest).some(pollWhile) } } : {}),
      })
      useEffect(() => {
        if (!liveRows) return
        return onRealtime(liveRows.event, (payload) => {
          const change = liveRows.update(payload)
          // The cached page is patched, not refetched: events come up to twice a second per row.
          if (change) void mutate((page) => (page ? patchPage(page, change) : page), { revalidate: false })
        })
      }, [mutate])
      const later = useLaterCount(countEndpoint, [endpoint.name, input], { ...filters, search: query.search }, { data, lagging: isLoading && data !== undefined })
      return {
        rows: data ? rowsOf(data) : undefined,
        count: data?.count ?? undefined,
        counting: later.counting,
        countFailed: later.countFailed,
        allRows: undefined,
        error,
        isLoading,
        isValidating,
        retry: () => {
          if (later.countFailed) later.retryCount()
          else void mutate()
        },
      }
    },
  }
}

/** Text sorted as people read it: case and accents aside, numbers by value. */
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })

/**
 * The rows of `all` whose text contains the search (case-insensitive), in the order `query` asks
 * for (`sortText` gives each sortable column's text; ties keep the call's order), then the page
 * of `query`.
 */
export function pageOfAll<R extends Row>(
  all: readonly R[],
  query: ListQuery,
  text: (row: R) => string,
  sortText: Readonly<Record<string, (row: R) => string>> = {},
): { rows: R[]; count: number; allRows: R[] } {
  const needle = query.search.trim().toLocaleLowerCase()
  const matching = needle === '' ? [...all] : all.filter((row) => text(row).toLocaleLowerCase().includes(needle))
  const key = query.sort === undefined ? undefined : sortText[query.sort.by]
  if (key !== undefined) {
    const sign = query.sort?.order === 'desc' ? -1 : 1
    // Array.prototype.sort is stable: rows that tie stay in the call's order.
    matching.sort((a, b) => sign * collator.compare(key(a), key(b)))
  }
  const start = (query.page - 1) * query.limit
  return { rows: matching.slice(start, start + query.limit), count: matching.length, allRows: matching }
}

/**
 * A call that answers the whole list: `pick` finds the rows in its answer, `text` is what the
 * search box searches in a row, `sortText` the text of each column the table sorts by.
 */
export function wholeListSource<E extends Endpoint, R extends Row>(
  endpoint: E,
  input: Input<E>,
  pick: (answer: Output<E>) => R[],
  text: (row: NoInfer<R>) => string,
  sortText: Readonly<Record<string, (row: NoInfer<R>) => string>> = {},
): ListSource<R> {
  const columns = Object.keys(sortText)
  return {
    sort: columns.length === 0 ? undefined : { columns },
    useRows(query) {
      const { data, error, isLoading, isValidating, mutate } = useCall(endpoint, input, { keepPreviousData: true })
      const all = useMemo(() => (data === undefined ? undefined : pick(data)), [data])
      const page = useMemo(() => (all === undefined ? undefined : pageOfAll(all, query, text, sortText)), [all, query])
      return { rows: page?.rows, count: page?.count, allRows: page?.allRows, error, isLoading, isValidating, retry: () => void mutate() }
    },
  }
}
