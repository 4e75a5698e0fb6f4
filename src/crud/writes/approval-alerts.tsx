/**
 * The signed-in area's ear for four eyes (approval.tsx has the sends' side): apart from it, so
 * every screen loads this and not the approval's row actions and notes.
 */
import { useEffect } from 'react'
import { useSWRConfig } from 'swr'
import { useLocation } from 'wouter'
import { ApprovalRequest, SEND_SCREENS, sendWaits } from '#contract/four-eyes'
import { SocketEvents } from '#contract/socket'
import { onRealtime } from '#src/lib/realtime-events.ts'
import { useSession } from '#src/lib/session.ts'
import { toast } from '#src/ui/toast.ts'
import { refreshAfterWrite } from './refresh.ts'

/** How long the toast of a new request stays (hovering or focusing it holds it): long enough to reach its Open. */
export const APPROVAL_TOAST_MS = 10_000

/**
 * In the signed-in area: when another Admin's send starts to wait for approval (the server tells
 * only the sessions that may approve it), the answers on screen are fetched again, so an open list
 * of sends shows the request, and a toast names it with a way to its screen. The toast goes like
 * the others, only later: the list keeps showing the request, and a toast that stayed would cover
 * the screen's own buttons at the top right.
 */
export function ApprovalAlerts() {
  const { userId } = useSession()
  const { mutate } = useSWRConfig()
  const [, navigate] = useLocation()
  useEffect(
    () =>
      onRealtime(SocketEvents.approvalRequested, (payload) => {
        const parsed = ApprovalRequest.safeParse(payload)
        if (!parsed.success || parsed.data.requestedById === userId) return
        const request = parsed.data
        // Another Admin's write: the same refresh as after one's own.
        void refreshAfterWrite(mutate)
        const id = toast.notice(
          sendWaits(request),
          'Open',
          () => {
            toast.dismiss(id)
            navigate(`${SEND_SCREENS[request.kind]}?search=${encodeURIComponent(request.title)}`)
          },
          APPROVAL_TOAST_MS,
        )
      }),
    [mutate, navigate, userId],
  )
  return null
}
