import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Button } from '#src/ui/button.tsx'
import { FieldIcon } from './fields/field-icons.tsx'
import type { FieldAction, FormField, Values } from './form-fields.ts'

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
        <Button
          variant="ghost"
          size="icon"
          className="h-9 w-9 text-slate-700"
          aria-pressed={open}
          aria-label={`${lock ? 'Unlock' : 'Edit'} ${field.label}`}
          title={lock ? (open ? 'Lock' : 'Unlock') : 'Edit'}
          onClick={onToggle}
        >
          <FieldIcon name={lock ? (open ? 'unlocked' : 'locked') : 'pencil'} />
        </Button>
      ) : null}
      {action ? (
        <Button
          variant="ghost"
          size="icon"
          className="h-9 w-9 text-red-700 hover:bg-red-50"
          aria-label={`${action.label} ${field.label}`}
          title={action.label}
          disabled={empty}
          aria-disabled={blocked ? true : undefined}
          onClick={() => onAction(action)}
        >
          <FieldIcon name={action.icon} />
        </Button>
      ) : null}
    </>
  )
}
