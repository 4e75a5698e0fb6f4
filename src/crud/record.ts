/**
 * The record an edit screen works on. The list passes it along in history state (spec: "the
 * record is passed along"), with its id in the URL as well, so that the edit screen still finds
 * it when the state is gone (a bookmarked link, a new tab): first in the offline cache of the
 * list, then by asking the server for the list's pages.
 */
import { useEffect, useMemo, useState } from 'react'
import { useSearch } from 'wouter'
import { useHistoryState } from 'wouter/use-browser-location'
import { z } from 'zod'
import { call } from '#src/lib/api.ts'
import { cachedAnswers } from '#src/lib/swr-cache.ts'
import { errorMessage } from './error-message.ts'
import { rowsOf, type ListEndpoint, type Row } from './list-types.ts'

/** The edit route for a record: `/edit-category?id=...`. */
export const editHref = (route: string, id: string): string => `${route}?id=${encodeURIComponent(id)}`

/** Pages asked for at most while looking a record up by id (100 records each). */
const LOOKUP_PAGES = 50
const LOOKUP_LIMIT = 100

export type RecordState<R> =
  | { status: 'loading' }
  | { status: 'found'; record: R }
  | { status: 'missing' }
  | { status: 'error'; message: string }

const find = <R extends Row>(rows: readonly R[], id: string): R | undefined => rows.find((r) => r._id === id)

/** Looks through the cached pages of the list (they survive reloads and work offline). */
function fromCache<R extends Row>(list: ListEndpoint<R>, id: string): R | undefined {
  for (const entry of cachedAnswers(list.name)) {
    const page = list.output.safeParse(entry.data)
    const hit = page.success ? find(rowsOf(page.data), id) : undefined
    if (hit) return hit
  }
  return undefined
}

/** Pages through the list on the server until the record turns up. */
async function fromServer<R extends Row>(list: ListEndpoint<R>, id: string): Promise<R | undefined> {
  for (let page = 1; page <= LOOKUP_PAGES; page++) {
    const answer = await call(list, { page, limit: LOOKUP_LIMIT, search: '' })
    const hit = find(rowsOf(answer), id)
    if (hit) return hit
    if (page * LOOKUP_LIMIT >= answer.count) return undefined
  }
  return undefined
}

/** The record named by `?id=` for an edit screen, parsed with the record schema. */
export function useEditRecord<R extends Row>(list: ListEndpoint<R>, schema: z.ZodType<R>): RecordState<R> {
  const id = new URLSearchParams(useSearch()).get('id') ?? ''
  const passed = z.object({ record: schema }).safeParse(useHistoryState())
  const fromState = passed.success && passed.data.record._id === id ? passed.data.record : undefined
  const hasState = fromState !== undefined
  const [looked, setLooked] = useState<{ id: string; state: RecordState<R> } | null>(null)

  const cached = useMemo(() => (hasState || id === '' ? undefined : fromCache(list, id)), [hasState, list, id])
  const hasCached = cached !== undefined

  useEffect(() => {
    if (hasState || hasCached || id === '') return
    let live = true
    fromServer(list, id).then(
      (record) => live && setLooked({ id, state: record ? { status: 'found', record } : { status: 'missing' } }),
      (error: unknown) => live && setLooked({ id, state: { status: 'error', message: errorMessage(error) } }),
    )
    return () => {
      live = false
    }
  }, [list, id, hasState, hasCached])

  if (fromState) return { status: 'found', record: fromState }
  if (cached) return { status: 'found', record: cached }
  if (id === '') return { status: 'missing' }
  return looked?.id === id ? looked.state : { status: 'loading' }
}
