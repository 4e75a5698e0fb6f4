/**
 * The record an edit screen works on. The list passes it along in history state (requirements R2.12:
 * the row's record is passed along), with its id in the URL as well, so that the edit screen still finds
 * it when the state is gone (a reload, a bookmarked link, a new tab): through the area's get-one
 * call, whose answer SWR keeps (and the offline copy with it), so a record read once opens again
 * without a request, offline too.
 */
import { useSearch } from 'wouter'
import { useHistoryState } from 'wouter/use-browser-location'
import { z } from 'zod/mini'
import type { Endpoint, Input, Output } from '#contract/define'
import { useCall } from '#src/lib/use-call.ts'
import { errorMessage } from '../form/error-message.ts'

/** The edit route for a record: `/edit-category?id=...`. */
export const editHref = (route: string, id: string): string => `${route}?id=${encodeURIComponent(id)}`

/** Every record has an opaque `_id` (contract/common.ts). */
export interface Identified {
  _id: string
}

/**
 * Where an edit form reads its record: the get-one call, its input for an id, and the record in
 * its answer. `schema` lets a record passed in history state be used at once (it is parsed first:
 * history state outlives app versions).
 *
 *     { get: getCategory, input: (id) => ({ id }), pick: (answer) => answer.data, schema: Category }
 */
export interface RecordSource<G extends Endpoint, R extends Identified> {
  get: G
  input: (id: string) => Input<G>
  pick: (answer: Output<G>) => R
  schema?: z.ZodMiniType<R>
}

export type RecordState<R> =
  | { status: 'loading' }
  | { status: 'found'; record: R }
  | { status: 'missing' }
  | { status: 'error'; message: string }

/** The record named by `?id=`: from history state, else the get-one call's cached or fetched answer. */
export function useEditRecord<G extends Endpoint, R extends Identified>(source: RecordSource<G, R>): RecordState<R> {
  const id = new URLSearchParams(useSearch()).get('id') ?? ''
  const state: unknown = useHistoryState()
  const passed = source.schema ? z.object({ record: source.schema }).safeParse(state) : undefined
  const fromState = passed?.success && passed.data.record._id === id ? passed.data.record : undefined
  const wanted = fromState === undefined && id !== ''
  // Fetched once: a background refetch would not change a form the user is already editing.
  const { data, error } = useCall(source.get, wanted ? source.input(id) : null, { revalidateOnFocus: false, shouldRetryOnError: false })

  if (fromState) return { status: 'found', record: fromState }
  if (id === '') return { status: 'missing' }
  if (data !== undefined) return { status: 'found', record: source.pick(data) }
  if (error) return error.status === 404 ? { status: 'missing' } : { status: 'error', message: errorMessage(error) }
  return { status: 'loading' }
}
