import { Controller } from 'react-hook-form'
import { Switch } from '#src/ui/switch.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'

function SwitchControl({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<'switch'>) {
  return (
    <Controller
      name={field.name}
      control={form.control}
      render={({ field: f }) => (
        <Switch
          id={id}
          checked={f.value === true}
          onCheckedChange={f.onChange}
          onBlur={f.onBlur}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          disabled={disabled || readOnly}
        />
      )}
    />
  )
}

export const switchType: FieldType<'switch'> = { initial: () => false, part: 'input', render: SwitchControl }
