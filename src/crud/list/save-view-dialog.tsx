import { useState, type FormEvent } from 'react'
import { saveView } from '#contract/saved-views'
import { ApiError, call } from '#src/lib/api.ts'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { errorMessage } from '../form/error-message.ts'
import '#src/lib/zod-messages.ts'

/** Names the list's current filters, search, page size and columns, and saves them. */
export function SaveViewDialog({ route, query, onClose, onSaved }: { route: string; query: string; onClose: () => void; onSaved: (name: string) => Promise<void> }) {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = saveView.input.safeParse({ route, name, query })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Incorrect format')
      return
    }
    setBusy(true)
    try {
      await call(saveView, parsed.data)
      await onSaved(parsed.data.name)
    } catch (e) {
      setError(e instanceof ApiError ? (e.errors['name'] ?? e.errors['route'] ?? e.errors['query'] ?? e.message) : errorMessage(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Save view</DialogTitle>
          <DialogDescription>Keeps this list's filters, search, page size and columns under a name, for you only.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} aria-busy={busy} className="relative flex flex-col gap-3" noValidate>
          <div className="flex flex-col gap-1">
            <Label htmlFor="view-name">Name</Label>
            <Input id="view-name" value={name} maxLength={60} autoFocus aria-invalid={error !== null} aria-describedby={error ? 'view-name-error' : undefined} onChange={(e) => setName(e.target.value)} />
            {error ? (
              <p id="view-name-error" role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFormFooter submit="Save" onCancel={onClose} busy={busy} />
        </form>
      </DialogContent>
    </Dialog>
  )
}
