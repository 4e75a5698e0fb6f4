/**
 * View as (contract/staff.ts): the banner every screen shows while the superadmin views the back
 * office as a staff member, with the one click back, and the check that keeps the browser's idea
 * of it in step with the server's (which alone decides: src/lib/view-as.ts).
 */
import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { getProfile } from '#contract/auth'
import { endViewAs } from '#contract/staff'
import { ApiError, call } from '#src/lib/api.ts'
import type { Session } from '#src/lib/session.ts'
import { keepViewAs } from '#src/lib/view-as.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'

/**
 * While the browser holds a View as, it asks the server once per session scope how the session
 * stands (Profile's `viewAs`): a View as the server no longer has is dropped, and a member whose
 * access changed meanwhile is shown with their access now. A session not viewing as anyone asks
 * nothing: View as starts only from this browser's row action, which keeps it.
 */
export function useViewAsInStep(session: Session): void {
  const { signedInSuperadmin, scope } = session
  const viewing = session.viewAs !== null
  useEffect(() => {
    if (!signedInSuperadmin || !viewing) return
    let cancelled = false
    call(getProfile, {}).then(
      ({ data }) => {
        if (cancelled) return
        const { viewAs, ...member } = data
        if (viewAs === undefined) {
          if (session.viewAs !== null) keepViewAs(null)
        } else if (session.userId !== member._id || session.accessLevel !== member.accessLevel || session.restrictions.join() !== member.restrictions.join()) {
          keepViewAs({ _id: member._id, name: member.name, email: member.email, role: member.role, accessLevel: member.accessLevel, restrictions: member.restrictions }, viewAs.by.name)
        }
      },
      // Offline or refused: what is kept stands; the server refuses what it must either way.
      () => {},
    )
    return () => {
      cancelled = true
    }
    // Asked again only when the session's scope changes (View as started, ended or refreshed).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedInSuperadmin, viewing, scope])
}

export function ViewAsBanner({ session }: { session: Session }) {
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const { viewAs } = session
  if (viewAs === null) return null

  const back = async () => {
    setBusy(true)
    try {
      await call(endViewAs, {})
    } catch (error) {
      // 409: the server had already ended it (another tab): back all the same.
      if (!(error instanceof ApiError && error.status === 409)) {
        toast.error(error instanceof Error ? error.message : 'Could not go back to your view')
        setBusy(false)
        return
      }
    }
    keepViewAs(null)
    navigate('/sub-admin', { replace: true })
  }

  return (
    <div
      role="region"
      aria-label="View as"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-300 bg-amber-100 px-3 py-2 text-sm text-amber-950"
    >
      <p className="font-medium">
        Viewing as {viewAs.name} ({viewAs.accessLevel})
      </p>
      <p>Read only: you see their menu and screens, and nothing can be changed.</p>
      <Button size="sm" variant="outline" className="ml-auto" disabled={busy} onClick={() => void back()}>
        Back to my view
      </Button>
    </div>
  )
}
