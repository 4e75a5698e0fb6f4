/**
 * The access request an approval works on. The pending list passes it along in history state,
 * with its id in the URL (`/edit-subAdmin?request=<id>`), as lists pass records to edit pages;
 * without the state (a reload, a pasted link) it is read with the get-one call `getAccessRequest`.
 */
import { useHistoryState } from 'wouter/use-browser-location'
import { z } from 'zod/mini'
import { AccessRequest, getAccessRequest } from '#contract/access-requests'
import { ApiError } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import type { RecordState } from '#src/crud/record/record.ts'

/** Where Approve leads: Edit User for the request (`/edit-subAdmin?request=<id>`). */
export const approveHref = (id: string): string => `/edit-subAdmin?request=${encodeURIComponent(id)}`

/** The request from history state, when the state names the request of the URL. */
export function requestFromState(state: unknown, id: string): AccessRequest | undefined {
  const passed = z.object({ record: AccessRequest }).safeParse(state)
  return passed.success && passed.data.record._id === id ? passed.data.record : undefined
}

/** The request named by `id`: from history state, else from the server. */
export function useAccessRequest(id: string): RecordState<AccessRequest> {
  const fromState = requestFromState(useHistoryState(), id)
  const { data, error } = useCall(getAccessRequest, fromState === undefined && id !== '' ? { id } : null)
  if (fromState) return { status: 'found', record: fromState }
  if (id === '') return { status: 'missing' }
  if (data !== undefined) return { status: 'found', record: data.data }
  // Approved or declined meanwhile: the server no longer knows the id.
  if (error instanceof ApiError && error.status === 404) return { status: 'missing' }
  if (error !== undefined) return { status: 'error', message: errorMessage(error) }
  return { status: 'loading' }
}
