/**
 * The access request an approval works on. The pending list passes it along in history state,
 * with its id in the URL (`/edit-subAdmin?request=<id>`), as lists pass records to edit pages
 * (src/crud/record.ts). Without the state (a reload, a pasted link) it is looked up in the pending
 * list itself: the contract has no get-one read for a request, and the queue of pending requests
 * is short (registering is rate limited per address), so a few pages of 100 cover it.
 */
import useSWR from 'swr'
import { useHistoryState } from 'wouter/use-browser-location'
import { z } from 'zod'
import { AccessRequest, listAccessRequests } from '#contract/access-requests'
import { call } from '#src/lib/api.ts'
import { errorMessage } from '#src/crud/error-message.ts'
import type { RecordState } from '#src/crud/record.ts'

/** Where Approve leads: Edit User for the request (`/edit-subAdmin?request=<id>`). */
export const approveHref = (id: string): string => `/edit-subAdmin?request=${encodeURIComponent(id)}`

/** The largest page the list call accepts (contract/common.ts PageQuery). */
export const LOOKUP_PAGE_SIZE = 100

export interface RequestPage {
  result: readonly AccessRequest[]
  count: number
}

/**
 * Reads pages of the pending list until the request with `id` shows up or the list ends.
 * Pure apart from `readPage`, so the tests give it pages of their own.
 */
export async function findRequest(
  id: string,
  readPage: (page: number, limit: number) => Promise<RequestPage>,
  limit = LOOKUP_PAGE_SIZE,
): Promise<AccessRequest | undefined> {
  for (let page = 1; ; page++) {
    const answer = await readPage(page, limit)
    const found = answer.result.find((r) => r._id === id)
    if (found) return found
    // Past the count, or a short page: a request approved meanwhile shrinks the list under us.
    if (page * limit >= answer.count || answer.result.length < limit) return undefined
  }
}

/** The request from history state, when the state names the request of the URL. */
export function requestFromState(state: unknown, id: string): AccessRequest | undefined {
  const passed = z.object({ record: AccessRequest }).safeParse(state)
  return passed.success && passed.data.record._id === id ? passed.data.record : undefined
}

const readPage = (page: number, limit: number) => call(listAccessRequests, { page, limit, search: '' })

/** The request named by `id`: from history state, else looked up in the pending list once. */
export function useAccessRequest(id: string): RecordState<AccessRequest> {
  const fromState = requestFromState(useHistoryState(), id)
  const wanted = fromState === undefined && id !== ''
  // A null answer (not undefined) means "looked, not there": SWR keeps undefined for "not yet".
  const { data, error } = useSWR(wanted ? ['findAccessRequest', id] : null, async () => (await findRequest(id, readPage)) ?? null, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  })

  if (fromState) return { status: 'found', record: fromState }
  if (id === '') return { status: 'missing' }
  if (data === null) return { status: 'missing' }
  if (data !== undefined) return { status: 'found', record: data }
  if (error !== undefined) return { status: 'error', message: errorMessage(error) }
  return { status: 'loading' }
}
