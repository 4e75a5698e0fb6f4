/**
 * The Profile screen's Passkeys (ours: the requirements have no passkeys): the signed-in admin's passkeys,
 * each with its name, when it was added and when it was last used; "Add a passkey" names one and
 * asks the browser to make it, Remove takes one away. Both are step-up calls (the API client asks
 * for the password or a passkey when the last proof is old), both need a connection, and both are
 * the admin's own account, so View Only staff may use them too. After either, the admin is offered
 * to sign out of their other sessions, in case the change was made because a device was lost.
 *
 * The command palette's "Add a passkey" opens Profile at #passkeys: the section comes into view
 * with its Add button focused.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { ADD_PASSKEY, PASSKEYS, PasskeyName, listPasskeys, removePasskey, type Passkey } from '#contract/passkeys'
import { listSessions } from '#contract/auth'
import { call } from '#src/lib/api.ts'
import { useOnline, WRITES_OFFLINE_MESSAGE } from '#src/lib/online.ts'
import { useCall } from '#src/lib/use-call.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { When } from '#src/crud/list/when.tsx'
import { Button } from '#src/ui/button.tsx'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { SIGN_OUT_OTHERS, signOutOtherSessions } from './active-sessions.tsx'
import '#src/lib/zod-messages.ts'

/** Where the palette's "Add a passkey" points. */
export const PASSKEYS_ANCHOR = 'passkeys'

const loadPasskeys = () => import('#src/lib/passkeys.ts')

function PasskeyRow({ passkey, offline, busy, onRemove }: { passkey: Passkey; offline: boolean; busy: boolean; onRemove: () => void }) {
  const labelId = useId()
  return (
    <li aria-labelledby={labelId} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="passkey">
      <div className="flex flex-col gap-0.5 text-sm">
        <span id={labelId} className="font-medium text-slate-900">
          {passkey.name}
        </span>
        <span className="text-slate-700">
          Created <When at={passkey.createdAt} />
          {' · '}
          {passkey.lastUsedAt === '' ? (
            'Never used'
          ) : (
            <>
              Last used <When at={passkey.lastUsedAt} />
            </>
          )}
        </span>
      </div>
      <Button
        variant="outline"
        size="sm"
        aria-disabled={offline || busy}
        aria-describedby={labelId}
        onClick={() => (offline ? toast.error(WRITES_OFFLINE_MESSAGE) : busy ? undefined : onRemove())}
      >
        Remove
      </Button>
    </li>
  )
}

/** The name asked before the browser's prompt: what the list will call the passkey. */
function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: () => void }) {
  const inputId = useId()
  const errorId = useId()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (busy) return
    const checked = PasskeyName.safeParse(name)
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Name is required')
      return
    }
    setError(null)
    setBusy(true)
    try {
      const { createPasskey } = await loadPasskeys()
      toast.success(await createPasskey(checked.data))
      onAdded()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{ADD_PASSKEY}</DialogTitle>
          <DialogDescription>Name it after the device or password manager that keeps it, then follow your browser&apos;s prompt.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy} className="relative flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={inputId}>Name</Label>
            <Input
              id={inputId}
              value={name}
              placeholder="e.g. Work laptop"
              maxLength={60}
              autoComplete="off"
              aria-invalid={error === null ? undefined : true}
              aria-describedby={error === null ? undefined : errorId}
              onChange={(event) => setName(event.target.value)}
            />
            {error === null ? null : (
              <p id={errorId} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
          <DialogFormFooter submit="Continue" onCancel={onClose} busy={busy} />
        </form>
      </DialogContent>
    </Dialog>
  )
}

export function PasskeysSection() {
  const headingId = useId()
  const online = useOnline()
  const offline = !online
  const { data, error, mutate } = useCall(listPasskeys, {})
  const sessions = useCall(listSessions, {})
  const [adding, setAdding] = useState(false)
  const [removing, setRemoving] = useState<Passkey | null>(null)
  const [offerSignOut, setOfferSignOut] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [supported, setSupported] = useState(true)
  const addButton = useRef<HTMLButtonElement>(null)
  const section = useRef<HTMLElement>(null)
  const passkeys = data?.data

  useEffect(() => {
    let live = true
    void loadPasskeys().then((lib) => {
      if (live) setSupported(lib.passkeysSupported())
    })
    return () => {
      live = false
    }
  }, [])

  // Opened from the palette (#passkeys): the section comes into view, its Add button focused,
  // once the list (and so the button) is there.
  const [opened, setOpened] = useState(false)
  useEffect(() => {
    const open = () => {
      if (window.location.hash === `#${PASSKEYS_ANCHOR}`) setOpened(true)
    }
    open()
    window.addEventListener('hashchange', open)
    return () => window.removeEventListener('hashchange', open)
  }, [])
  const loaded = passkeys !== undefined
  useEffect(() => {
    if (!opened || !loaded) return
    // A timer, not at once: the palette's dialog gives the focus back to where it was with a timer
    // of its own as it closes, queued before this one.
    const timer = setTimeout(() => {
      setOpened(false)
      section.current?.scrollIntoView({ block: 'start' })
      addButton.current?.focus()
    }, 0)
    return () => clearTimeout(timer)
  }, [opened, loaded])

  /** After a change: offered only when another session is open, since there is nothing to end otherwise. */
  const afterChange = async (what: string) => {
    await mutate()
    const fresh = await sessions.mutate()
    const others = fresh?.data.filter((s) => !s.current).length ?? 0
    if (others > 0) setOfferSignOut(what)
  }

  let body
  if (passkeys) {
    body = (
      <>
        {passkeys.length === 0 ? (
          <p className="text-sm text-slate-700">You have no passkeys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {passkeys.map((p) => (
              <PasskeyRow key={p._id} passkey={p} offline={offline} busy={busy} onRemove={() => setRemoving(p)} />
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            ref={addButton}
            aria-disabled={offline || !supported}
            onClick={() => (offline ? toast.error(WRITES_OFFLINE_MESSAGE) : supported ? setAdding(true) : toast.error('This browser cannot create passkeys.'))}
          >
            {ADD_PASSKEY}
          </Button>
          {offline ? <p className="text-sm text-amber-900">{WRITES_OFFLINE_MESSAGE}</p> : null}
          {online && !supported ? <p className="text-sm text-amber-900">This browser cannot create passkeys.</p> : null}
        </div>
      </>
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    body = <RecordUnloaded state={state} what="your passkeys" rows={1} retry={() => void mutate()} />
  }

  return (
    <section ref={section} id={PASSKEYS_ANCHOR} aria-labelledby={headingId} className="flex scroll-mt-4 flex-col gap-3 rounded-md border border-slate-200 bg-white p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {PASSKEYS}
      </h2>
      <p className="text-sm text-slate-700">A passkey signs you in without your password, with your device&apos;s screen lock or a security key. It also confirms it is you before a risky action.</p>
      {body}
      {adding ? (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false)
            void afterChange('added')
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (busy || open ? undefined : setRemoving(null))}
        title={`Remove the passkey “${removing?.name ?? ''}”?`}
        description="It will no longer sign you in. The passkey may stay on the device until you delete it there too."
        busy={busy}
        onConfirm={() => {
          const target = removing
          if (target === null) return
          setBusy(true)
          call(removePasskey, { id: target._id })
            .then(async (answer) => {
              toast.success(answer.message)
              setRemoving(null)
              await afterChange('removed')
            })
            .catch((failure: unknown) => toast.error(errorMessage(failure)))
            .finally(() => setBusy(false))
        }}
      />
      <ConfirmDialog
        open={offerSignOut !== null}
        onOpenChange={(open) => (busy || open ? undefined : setOfferSignOut(null))}
        title={`${SIGN_OUT_OTHERS}?`}
        description={`Your passkey was ${offerSignOut ?? 'changed'}. If you did this because a device was lost or someone else may be signed in as you, sign out every other session now. This device stays signed in.`}
        confirmLabel="Sign out"
        cancelLabel="Not now"
        busy={busy}
        onConfirm={() => {
          setBusy(true)
          signOutOtherSessions()
            .then(async () => {
              setOfferSignOut(null)
              await sessions.mutate()
            })
            .catch((failure: unknown) => toast.error(errorMessage(failure)))
            .finally(() => setBusy(false))
        }}
      />
    </section>
  )
}
