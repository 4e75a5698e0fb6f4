import { useId, type ReactNode } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import type { FileKind, FileRule } from '#contract/define'
import { Label } from '#src/ui/label.tsx'
import { fieldType } from './field-registry.ts'
import { fieldError } from './form-hook.ts'
import type { FieldRenderProps } from './fields/types.ts'
import type { FieldKind, FormField, Values } from './form-fields.ts'

export type { Values } from './form-fields.ts'

interface FieldControlProps {
  field: FormField<string>
  form: UseFormReturn<Values>
  /** The endpoint's rule for a file field. */
  rule?: FileRule | undefined
  /** Not editable and out of the tab order (a pencil not pressed yet). */
  disabled?: boolean
  /** Shown but not editable (a locked field, a View Only session). */
  readOnly?: boolean
  /** Controls beside the input: a lock toggle, a pencil, a per-field action. */
  adornment?: ReactNode
  /** Marked as one the form must fill (form-engine.tsx works it out from the call's rules). */
  required?: boolean
}

const FILE_KIND_NAMES: Record<FileKind, string> = { png: 'PNG', jpeg: 'JPEG', mp4: 'MP4', m4a: 'M4A', webm: 'WebM' }

/**
 * What a field accepts, said before anyone gets it wrong: a link's form, a file's kinds, size and
 * count, from the same rule the form and the server check.
 */
export function formatHint(field: FormField<string>, rule: FileRule | undefined): string | undefined {
  if (field.kind === 'url') return 'A web address starting with https://, http:// or www.'
  if (rule === undefined) return undefined
  const kinds = rule.kinds.map((k) => FILE_KIND_NAMES[k])
  const listed = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1) ?? ''}` : (kinds[0] ?? '')
  const size = `up to ${Math.round(rule.maxBytes / (1024 * 1024))} MB${rule.max > 1 ? ' each' : ''}`
  return `${listed}, ${size}${rule.max > 1 ? `; at most ${rule.max} files` : ''}.`
}

/** The renderer of the field's kind, typed for that kind. */
function Renderer<K extends FieldKind>(props: FieldRenderProps<K>) {
  const Render = fieldType<K>(props.field.kind).render
  return <Render {...props} />
}

/** One labelled field with its error message underneath (client rule or server `errors`). */
export function FieldControl({ field, form, rule, disabled = false, readOnly = false, adornment, required = false }: FieldControlProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const error = fieldError(form, field.name)
  const format = readOnly ? undefined : formatHint(field, rule)
  const hint = [field.hint, format].filter((h) => h !== undefined).join(' ') || undefined
  const describedBy = [hint === undefined ? '' : hintId, error ? errorId : ''].filter((d) => d !== '').join(' ') || undefined
  const control = <Renderer field={field} form={form} rule={rule} disabled={disabled} readOnly={readOnly} id={id} describedBy={describedBy} invalid={error !== undefined} />

  return (
    <div className="flex flex-col gap-1.5">
      {/* The id names the field for controls that are not labelable (the rich-text editor). */}
      <Label id={`${id}-label`} htmlFor={id}>
        {field.label}
        {/* Seen, not heard: the field's name stays its label; the form's note says what * means. */}
        {required && !readOnly ? (
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        ) : null}
      </Label>
      {adornment ? (
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">{control}</div>
          <div className="flex shrink-0 items-center gap-1">{adornment}</div>
        </div>
      ) : (
        control
      )}
      {hint === undefined ? null : (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
