/**
 * The side menu's counts (contract/dashboard.ts getMenuCounts): open enquiries beside Contact Us,
 * pending access requests beside Users and Access, link changes waiting for the admin's approval
 * beside Link changes. The server leaves out a count the admin may
 * not read. Asked again after this tab's writes (every shown answer is, src/crud/writes/refresh.ts) and
 * when the server says another session changed one (COUNTS_CHANGED over the socket).
 */
import { useEffect } from 'react'
import { getMenuCounts } from '#contract/dashboard'
import { SocketEvents } from '#contract/socket'
import { onRealtime } from '#src/lib/realtime-events.ts'
import { useCall } from '#src/lib/use-call.ts'

export interface MenuCount {
  count: number
  /** What the number counts, for screen readers ("3 open enquiries"). */
  noun: string
}

export function useMenuCounts(): ReadonlyMap<string, MenuCount> {
  const { data, mutate } = useCall(getMenuCounts, {}, { frame: true })
  useEffect(() => onRealtime(SocketEvents.countsChanged, () => void mutate()), [mutate])
  const counts = new Map<string, MenuCount>()
  const { contactus, accessRequests } = data?.counts ?? {}
  if (contactus !== undefined) counts.set('/contactus', { count: contactus, noun: contactus === 1 ? 'open enquiry' : 'open enquiries' })
  if (accessRequests !== undefined) {
    counts.set('/sub-admin', { count: accessRequests, noun: accessRequests === 1 ? 'pending access request' : 'pending access requests' })
  }
  const { linkChanges } = data?.counts ?? {}
  if (linkChanges !== undefined) counts.set('/link-changes', { count: linkChanges, noun: linkChanges === 1 ? 'link change to approve' : 'link changes to approve' })
  return counts
}
