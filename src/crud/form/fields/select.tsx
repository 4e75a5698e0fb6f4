import { Controller } from 'react-hook-form'
import { Select, type SelectOption } from '#src/ui/select.tsx'
import { OptionsError } from './options-error.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'

const asText = (value: unknown): string => (typeof value === 'string' ? value : '')

function SelectControl({ field, form, id, describedBy, invalid, disabled, readOnly, options, placeholder }: FieldRenderProps<'select' | 'remote-select'> & { options: readonly SelectOption[]; placeholder?: string | undefined }) {
  return (
    <Controller
      name={field.name}
      control={form.control}
      render={({ field: f }) => (
        <Select
          id={id}
          value={asText(f.value)}
          onValueChange={f.onChange}
          onBlur={f.onBlur}
          options={options}
          placeholder={placeholder ?? field.placeholder}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          // A select has no read-only state: a View Only or locked one is disabled.
          disabled={disabled || readOnly}
          className="w-full"
        />
      )}
    />
  )
}

function StaticSelect(props: FieldRenderProps<'select'>) {
  return <SelectControl {...props} options={props.field.options} />
}

export const selectType: FieldType<'select'> = { initial: () => '', part: 'input', render: StaticSelect }

/** Options from a call: a disabled select says it is loading; a failure says why and offers Retry. */
function RemoteSelectControl(props: FieldRenderProps<'remote-select'>) {
  const state = props.field.source.useOptions()
  if (state.status === 'error') return <OptionsError id={props.id} label={props.field.label} message={state.message} retry={state.retry} />
  if (state.status === 'loading') return <SelectControl {...props} disabled options={[]} placeholder="Loading…" />
  return <SelectControl {...props} options={state.options} />
}

export const remoteSelectType: FieldType<'remote-select'> = { initial: () => '', part: 'input', render: RemoteSelectControl }
