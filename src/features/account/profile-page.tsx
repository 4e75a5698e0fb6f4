/**
 * Profile (/profile, requirements R2.32): name and email read-only; an edit modal changes the name
 * only. Below, the two-factor section (ours: the requirements give the login code, not how it is set up),
 * the Passkeys (ours: add, list and remove) and the Active sessions (ours: each sign-in, and
 * signing out of the others).
 */
import { useId, useState } from 'react'
import { editProfile, getProfile, type Profile } from '#contract/auth'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { text } from '#src/crud/form/form-fields.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { TwoFactorSection } from './two-factor-section.tsx'
import { ActiveSessionsSection } from './active-sessions.tsx'
import { PasskeysSection } from './passkeys-section.tsx'

function ReadOnly({ label, value }: { label: string; value: string }) {
  const id = useId()
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly className="bg-slate-50" />
    </div>
  )
}

function EditNameDialog({ profile, open, onClose, onSaved }: { profile: Profile; open: boolean; onClose: () => void; onSaved: () => void }) {
  const form = useContractForm(editProfile.input, { name: profile.name })
  const { isSubmitting } = form.formState
  const save = form.handleSubmit(async (values) => {
    try {
      const answer = await call(editProfile, { name: textOf(values['name']) })
      toast.success(answer.message)
      onSaved()
      onClose()
    } catch (error) {
      showFailure(form, error, ['name'])
    }
  })
  return (
    <Dialog open={open} onOpenChange={(next) => (next || isSubmitting ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Your email address cannot be changed here.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={save} aria-busy={isSubmitting} className="relative flex flex-col gap-4">
          <FieldControl field={text('name', 'Name', { autoComplete: 'name' })} form={form} />
          <DialogFormFooter submit="Submit" onCancel={onClose} busy={isSubmitting} />
        </form>
      </DialogContent>
    </Dialog>
  )
}

export function ProfilePage() {
  const headingId = useId()
  const { data, error, mutate } = useCall(getProfile, {})
  const [editing, setEditing] = useState(false)
  const profile = data?.data

  let body
  if (profile) {
    body = (
      <>
        <div className="flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
          <ReadOnly label="Name" value={profile.name} />
          <ReadOnly label="Email" value={profile.email} />
          <div>
            <Button onClick={() => setEditing(true)}>Edit Profile</Button>
          </div>
        </div>
        {/* Mounted while open only, so the form starts from the current name every time. */}
        {editing ? <EditNameDialog profile={profile} open={editing} onClose={() => setEditing(false)} onSaved={() => void mutate()} /> : null}
        <TwoFactorSection enabled={profile.twoFactorEnabled} onChange={() => void mutate()} />
        <PasskeysSection />
        <ActiveSessionsSection />
      </>
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    body = <RecordUnloaded state={state} what="your profile" rows={2} retry={() => void mutate()} />
  }

  return (
    <section aria-labelledby={headingId} className="flex max-w-2xl flex-col gap-4">
      <h1 id={headingId} className="text-xl font-semibold text-slate-900">
        Profile
      </h1>
      {body}
    </section>
  )
}
