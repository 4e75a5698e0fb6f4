/**
 * The Profile screen's Active sessions (ours: the requirements give no session list): each sign-in of this
 * admin that still works, with its device, address, sign-in time and last activity, "This device"
 * marked. Signing out of another session ends it on the server at once (its token is refused and
 * its open pages are logged out). Nothing here works offline: the buttons say so, as other writes do.
 */
import { useId, useState } from 'react'
import { endOtherSessions, endSession, listSessions, type ActiveSession } from '#contract/auth'
import { call } from '#src/lib/api.ts'
import { useOnline, WRITES_OFFLINE_MESSAGE } from '#src/lib/online.ts'
import { useCall } from '#src/lib/use-call.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { When } from '#src/crud/list/when.tsx'
import { Button } from '#src/ui/button.tsx'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { RecordUnloaded } from '#src/crud/form/form-frame.tsx'

export const ACTIVE_SESSIONS = 'Active sessions'
export const SIGN_OUT_OTHERS = 'Sign out of all other sessions'

/** Ends every other session of the signed-in admin and toasts the answer (Profile, the palette). */
export async function signOutOtherSessions(): Promise<void> {
  const answer = await call(endOtherSessions, {})
  toast.success(answer.count === 0 ? 'There were no other sessions to sign out' : answer.message)
}

function SessionRow({ session, offline, busy, onSignOut }: { session: ActiveSession; offline: boolean; busy: boolean; onSignOut: () => void }) {
  const labelId = useId()
  return (
    <li aria-labelledby={labelId} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="active-session">
      <div className="flex flex-col gap-0.5 text-sm">
        <span id={labelId} className="font-medium text-slate-900">
          {session.device === '' ? 'Unknown device' : session.device}
          {session.current ? <span className="ml-2 rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-900">This device</span> : null}
        </span>
        <span className="text-slate-700">
          {session.address === '' ? 'Address unknown' : session.address}
          {' · '}Signed in {session.signedInAt === '' ? 'at an unknown time' : <When at={session.signedInAt} />}
          {' · '}Last active <When at={session.lastActiveAt} />
        </span>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          size="sm"
          aria-disabled={offline || busy}
          aria-describedby={labelId}
          onClick={() => (offline ? toast.error(WRITES_OFFLINE_MESSAGE) : busy ? undefined : onSignOut())}
        >
          Sign out
        </Button>
      )}
    </li>
  )
}

export function ActiveSessionsSection() {
  const headingId = useId()
  const online = useOnline()
  const offline = !online
  const { data, error, mutate } = useCall(listSessions, {})
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const sessions = data?.data
  const others = sessions?.filter((s) => !s.current).length ?? 0

  async function run(work: () => Promise<void>) {
    setBusy(true)
    try {
      await work()
      await mutate()
    } catch (failure) {
      toast.error(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  let body
  if (sessions) {
    body = (
      <>
        <ul className="divide-y divide-slate-200">
          {sessions.map((s) => (
            <SessionRow
              key={s._id}
              session={s}
              offline={offline}
              busy={busy}
              onSignOut={() =>
                void run(async () => {
                  const answer = await call(endSession, { id: s._id })
                  toast.success(answer.message)
                })
              }
            />
          ))}
        </ul>
        {others === 0 ? <p className="text-sm text-slate-700">You are not signed in anywhere else.</p> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="outline"
            aria-disabled={offline || busy || others === 0}
            onClick={() => (offline ? toast.error(WRITES_OFFLINE_MESSAGE) : busy || others === 0 ? undefined : setConfirming(true))}
          >
            {SIGN_OUT_OTHERS}
          </Button>
          {offline ? <p className="text-sm text-amber-900">{WRITES_OFFLINE_MESSAGE}</p> : null}
        </div>
      </>
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    body = <RecordUnloaded state={state} what="your sessions" rows={2} retry={() => void mutate()} />
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {ACTIVE_SESSIONS}
      </h2>
      <p className="text-sm text-slate-700">Where you are signed in now. Signing out of a session ends it at once on that device.</p>
      {body}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => (busy ? undefined : setConfirming(open))}
        title={`${SIGN_OUT_OTHERS}?`}
        description="Every other device signed in as you is signed out at once. This device stays signed in."
        confirmLabel="Sign out"
        busy={busy}
        onConfirm={() =>
          void run(async () => {
            await signOutOtherSessions()
            setConfirming(false)
          })
        }
      />
    </section>
  )
}
