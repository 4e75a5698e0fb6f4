import { useId, useState, type FormEvent } from 'react'
import { FrequencyCap, frequencyCapText, getSettings, setFrequencyCap } from '#contract/settings'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { call } from '#src/lib/api.ts'
import { useSession } from '#src/lib/session.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Checkbox } from '#src/ui/checkbox.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { toast } from '#src/ui/toast.ts'
import { SettingsSection } from './settings-section.tsx'

type Draft = { on: boolean; messages: string; days: string }
type Problems = Partial<Record<'messages' | 'days', string>>

/** The draft checked by the contract's own schema: the cap, or the message under each field. */
function check(draft: Draft): { cap: FrequencyCap } | { problems: Problems } {
  const parsed = FrequencyCap.safeParse(draft)
  if (parsed.success) return { cap: parsed.data }
  const problems: Problems = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0]
    if ((field === 'messages' || field === 'days') && problems[field] === undefined) problems[field] = issue.message
  }
  return { problems }
}

function NumberField({ id, label, value, problem, disabled, onChange }: { id: string; label: string; value: string; problem: string | undefined; disabled: boolean; onChange: (v: string) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        className="w-28"
        value={value}
        disabled={disabled}
        aria-invalid={problem !== undefined}
        aria-describedby={problem === undefined ? undefined : `${id}-error`}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem === undefined ? null : (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  )
}

/**
 * The frequency cap of mass sends: off by default; the superadmin may turn it on with at most N
 * messages (promotions and newsletters together) per lead in D days, and the server asks for a
 * recent proof of identity and audits the change. Capped leads are left out of sends with the
 * reason "Frequency cap". Others read where it stands.
 */
export function FrequencyCapSection() {
  const session = useSession()
  const id = useId()
  const { data, mutate } = useCall(getSettings, {})
  const saved = data?.result[0]?.frequency_cap
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problems, setProblems] = useState<Problems>({})
  const [busy, setBusy] = useState(false)
  if (saved === undefined) return null
  const shown: Draft = draft ?? { on: saved.on, messages: String(saved.messages), days: String(saved.days) }
  const edit = (next: Partial<Draft>) => setDraft({ ...shown, ...next })

  async function save(event: FormEvent) {
    event.preventDefault()
    const checked = check(shown)
    if ('problems' in checked) {
      setProblems(checked.problems)
      return
    }
    setProblems({})
    setBusy(true)
    try {
      const answer = await call(setFrequencyCap, checked.cap)
      toast.success(answer.message)
      await mutate()
      setDraft(null)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <SettingsSection title="Frequency cap">
      <p role="status">{frequencyCapText(saved)}.</p>
      {session.role === 'superadmin' ? (
        <form noValidate onSubmit={(e) => void save(e)} aria-busy={busy} className="flex flex-col gap-3">
          <label className="flex items-center gap-2">
            <Checkbox checked={shown.on} disabled={busy} onChange={() => edit({ on: !shown.on })} />
            Cap the messages each lead receives
          </label>
          <div className="flex flex-wrap items-start gap-4">
            <NumberField id={`${id}-messages`} label="At most (messages)" value={shown.messages} problem={problems.messages} disabled={busy || !shown.on} onChange={(messages) => edit({ messages })} />
            <NumberField id={`${id}-days`} label="In (days)" value={shown.days} problem={problems.days} disabled={busy || !shown.on} onChange={(days) => edit({ days })} />
          </div>
          <p className="text-slate-600">Counted from what was actually sent: promotions delivered and newsletters mailed. Capped leads are left out with the reason “Frequency cap”.</p>
          <div>
            <Button type="submit" disabled={busy || draft === null} aria-busy={busy}>
              Save the frequency cap
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-slate-600">Only the superadmin can change this.</p>
      )}
    </SettingsSection>
  )
}
