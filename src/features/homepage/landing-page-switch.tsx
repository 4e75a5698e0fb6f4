/**
 * "Show this CMS content on landing page" (requirements R2.30, R4.8): an Admin-only switch over the
 * homepage preference, re-read after each change. Other staff see the current state as text.
 */
import { useId, useState } from 'react'
import { useSWRConfig } from 'swr'
import { getHomepageCmsPreference, updateHomepageCmsPreference } from '#contract/homepage'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Label } from '#src/ui/label.tsx'
import { Switch } from '#src/ui/switch.tsx'
import { toast } from '#src/ui/toast.ts'

export const LANDING_PAGE_LABEL = 'Show this CMS content on landing page'

export function LandingPageSwitch() {
  const id = useId()
  const write = useWriteAccess()
  const { mutate } = useSWRConfig()
  const { data, error, mutate: reread } = useCall(getHomepageCmsPreference, {})
  const [busy, setBusy] = useState(false)
  const shown = data?.result.status

  if (shown === undefined && error) {
    return (
      <Button variant="outline" size="sm" onClick={() => void reread()}>
        Retry loading the landing-page setting
      </Button>
    )
  }
  if (!write.allowed) {
    if (shown === undefined) return null
    return <p className="text-sm text-slate-700">{shown ? 'Shown on the landing page' : 'Not shown on the landing page'}</p>
  }

  async function flip(next: boolean) {
    if (write.blockedReason) {
      toast.error(write.blockedReason)
      return
    }
    setBusy(true)
    try {
      const answer = await call(updateHomepageCmsPreference, { status: next })
      toast.success(answer.message)
    } catch (failure) {
      toast.error(errorMessage(failure))
    } finally {
      // Re-read after each change, failed or not: the switch shows what the server holds.
      await refreshAfterWrite(mutate)
      setBusy(false)
    }
  }

  const unavailable = shown === undefined || busy || write.blockedReason !== undefined
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={shown ?? false}
        aria-busy={shown === undefined || busy ? true : undefined}
        aria-disabled={unavailable ? true : undefined}
        className={unavailable ? 'opacity-60' : undefined}
        onCheckedChange={(next) => (unavailable && write.blockedReason === undefined ? undefined : void flip(next))}
      />
      <Label htmlFor={id} className="text-sm font-medium text-slate-800">
        {LANDING_PAGE_LABEL}
      </Label>
    </div>
  )
}
