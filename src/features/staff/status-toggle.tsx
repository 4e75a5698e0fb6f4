/**
 * The Active/DeActive toggle of a staff row (spec sections 2 and 4): a switch that flips
 * `activate` with ActivateSubadminStatusUpdate, then reloads the list. Deactivating ends that
 * admin's sessions at once on the server (the LOGOUT event).
 */
import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { ActivateSubadminStatusUpdate, FetchSubAdminUsers, type SubAdmin } from '#contract/staff'
import { call } from '#src/lib/api.ts'
import { toast } from '#src/lib/toast.ts'
import { errorMessage } from '#src/crud/error-message.ts'
import { cn } from '#src/ui/cn.ts'

export function StatusToggle({ row, blockedReason }: { row: SubAdmin; blockedReason: string | undefined }) {
  const { mutate } = useSWRConfig()
  const [busy, setBusy] = useState(false)
  const active = row.activate === 1

  async function flip() {
    if (blockedReason) {
      toast.error(blockedReason)
      return
    }
    setBusy(true)
    try {
      const answer = await call(ActivateSubadminStatusUpdate, { id: row._id })
      toast.success(answer.message)
      await mutate((key) => Array.isArray(key) && key[0] === FetchSubAdminUsers.name)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <button
      type="button"
      role="switch"
      aria-checked={active}
      aria-label={`Active ${row.name}`}
      aria-disabled={blockedReason || busy ? true : undefined}
      onClick={() => (busy ? undefined : void flip())}
      className={cn(
        'inline-flex h-8 items-center gap-2 rounded-md px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
        active ? 'text-emerald-800 hover:bg-emerald-50' : 'text-slate-700 hover:bg-slate-100',
        blockedReason || busy ? 'cursor-not-allowed opacity-50' : '',
      )}
    >
      <span aria-hidden="true" className={cn('relative h-5 w-9 rounded-full transition-colors', active ? 'bg-emerald-600' : 'bg-slate-400')}>
        <span className={cn('absolute top-0.5 size-4 rounded-full bg-white shadow transition-all', active ? 'left-4.5' : 'left-0.5')} />
      </span>
      {active ? 'Active' : 'DeActive'}
    </button>
  )
}
