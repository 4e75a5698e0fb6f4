/**
 * "Send later" (contract/send-later.ts): a date and time in the browser's own time zone, with the
 * same moment in UTC beside it, as the server and the list say it. Empty sends at once. The form
 * holds the local value ('2026-05-01T09:30'); `sendAtOf` turns it into the instant the server takes.
 */
import { useWatch } from 'react-hook-form'
import { Input } from '#src/ui/input.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'

/** The browser's time zone by name ('Europe/Berlin'), for the hint. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/** A moment as UTC words, to the minute: '2026-05-01 07:30 UTC'. */
export const utcText = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** The local value as the instant the server takes ('' for none; a value that is no date goes as it is, for the server to refuse). */
export function sendAtOf(local: unknown): string {
  const value = typeof local === 'string' ? local.trim() : ''
  if (value === '') return ''
  const at = new Date(value)
  return Number.isNaN(at.getTime()) ? value : at.toISOString()
}

/** The local value of an instant, as a datetime-local input holds it. */
export function localValueOf(iso: string): string {
  const at = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

/** What the chosen value means, said beside the input. */
export function SendLaterNote({ value }: { value: unknown }) {
  const instant = sendAtOf(value)
  const at = instant === '' ? null : new Date(instant)
  const text = at === null || Number.isNaN(at.getTime()) ? `Empty sends it now. Your time zone: ${localZone()}.` : `${utcText(at)} (your time zone: ${localZone()})`
  return (
    <span aria-live="polite" className="text-xs text-slate-600">
      {text}
    </span>
  )
}

function SendLaterControl({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<'datetime'>) {
  const value = useWatch({ control: form.control, name: field.name })
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Input id={id} type="datetime-local" className="w-auto" aria-invalid={invalid} aria-describedby={describedBy} {...form.register(field.name)} disabled={disabled} readOnly={readOnly} />
      <SendLaterNote value={value} />
    </div>
  )
}

export const dateTimeType: FieldType<'datetime'> = { initial: () => '', part: 'input', render: SendLaterControl }
