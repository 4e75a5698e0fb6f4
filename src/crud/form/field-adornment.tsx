import { useWatch, type UseFormReturn } from 'react-hook-form'
import { cn } from '#src/ui/cn.ts'
import { FieldIcon } from './fields/field-icons.tsx'
import type { FieldAction, FormField, Values } from './form-fields.ts'

// Unavailable icons turn grey rather than fade: faded red falls under 3:1 against the form.
const iconButton =
  'inline-flex size-9 items-center justify-center rounded-md transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:pointer-events-none disabled:text-slate-500'

interface AdornmentProps {
  field: FormField<string>
  form: UseFormReturn<Values>
  open: boolean
  onToggle: () => void
  onAction: (action: FieldAction) => void
  blocked: boolean
}

/** The lock toggle or the pencil of a guarded field, and its action, beside the input. */
export function FieldAdornment({ field, form, open, onToggle, onAction, blocked }: AdornmentProps) {
  const { guard, action } = field
  // Nothing in the field, nothing to delete.
  const empty = !useWatch({ control: form.control, name: field.name })
  const lock = guard === 'lock'
  return (
    <>
      {guard ? (
        <button
          type="button"
          className={cn(iconButton, 'text-slate-700 hover:bg-slate-100 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-800')}
          aria-pressed={open}
          aria-label={`${lock ? 'Unlock' : 'Edit'} ${field.label}`}
          title={lock ? (open ? 'Lock' : 'Unlock') : 'Edit'}
          onClick={onToggle}
        >
          <FieldIcon name={lock ? (open ? 'unlocked' : 'locked') : 'pencil'} />
        </button>
      ) : null}
      {action ? (
        <button
          type="button"
          className={cn(iconButton, 'text-red-700 hover:bg-red-50 aria-disabled:cursor-not-allowed aria-disabled:text-slate-500')}
          aria-label={`${action.label} ${field.label}`}
          title={action.label}
          disabled={empty}
          aria-disabled={blocked ? true : undefined}
          onClick={() => onAction(action)}
        >
          <FieldIcon name={action.icon} />
        </button>
      ) : null}
    </>
  )
}
