import { useId, type ReactNode } from 'react'
import { formatHint } from './format-hint.ts'
import type { UseFormReturn } from 'react-hook-form'
import type { FileRule } from '#contract/define'
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
  /** Marked as required (the form's legend says what the mark means). */
  required?: boolean
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
  const requiredId = `${id}-required`
  const error = fieldError(form, field.name)
  // The field's own words first, then what its kind accepts (a link's forms, a file's kinds and size).
  const hint = [field.hint, formatHint(field.kind, rule)].filter((h) => h !== undefined).join(' ') || undefined
  // Said to a screen reader as the field's description, so the label (the field's name) stays as written.
  const describedBy = [required ? requiredId : '', hint === undefined ? '' : hintId, error ? errorId : ''].filter((d) => d !== '').join(' ') || undefined
  const control = <Renderer field={field} form={form} rule={rule} disabled={disabled} readOnly={readOnly} id={id} describedBy={describedBy} invalid={error !== undefined} />

  return (
    <div className="flex flex-col gap-1.5">
      {/* The id names the field for controls that are not labelable (the rich-text editor). */}
      {/* The mark sits beside the label, not in it: the label's text is the field's name as written. */}
      <div className="flex items-baseline">
        <Label id={`${id}-label`} htmlFor={id}>
          {field.label}
        </Label>
        {required ? <RequiredMark /> : null}
      </div>
      {required ? (
        <span id={requiredId} className="sr-only">
          Required
        </span>
      ) : null}
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

/** The mark of a required field, after its label: read as "Required" from the field's description. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700">
      *
    </span>
  )
}

/**
 * Said once above a form's fields where any is required: what the mark means. Hidden from screen
 * readers, which hear "Required" with each such field instead.
 */
export function RequiredLegend() {
  return (
    <p aria-hidden="true" className="text-sm text-slate-600">
      Fields marked <span className="text-red-700">*</span> are required.
    </p>
  )
}
