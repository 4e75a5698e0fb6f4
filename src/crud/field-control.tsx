import { useCallback, useId } from 'react'
import { Controller, type UseFormReturn } from 'react-hook-form'
import type { FileRule } from '#contract/define'
import { NO_FILE_SELECTED } from '#contract/catalog'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { Select } from '#src/ui/select.tsx'
import { Textarea } from '#src/ui/textarea.tsx'
import { checkFiles } from './file-check.ts'
import type { FormField, ImageField } from './form-fields.ts'
import { ImageInput } from './image-input.tsx'

export type Values = Record<string, unknown>

interface FieldControlProps {
  field: FormField<string>
  form: UseFormReturn<Values>
  /** The endpoint's rule for a file field. */
  rule?: FileRule | undefined
  /** Saved file URL of an edit form's record, for the preview. */
  current?: string | undefined
}

const fileList = (value: unknown): File[] => (Array.isArray(value) ? value.filter((v): v is File => v instanceof File) : [])

function ImageControl({ field, form, rule, current, id, describedBy }: Omit<FieldControlProps, 'field'> & { field: ImageField; id: string; describedBy: string | undefined }) {
  const { setError, getValues } = form
  const name = field.name
  // Closing the picker without a choice keeps an earlier file (Chromium does too); with none, the
  // spec's 'No file selected.' tells why nothing happened.
  const cancelled = useCallback(() => {
    if (fileList(getValues(name)).length === 0) setError(name, { type: 'manual', message: NO_FILE_SELECTED })
  }, [getValues, setError, name])
  if (!rule) throw new Error(`The endpoint has no file field "${name}"`)
  return (
    <Controller
      name={name}
      control={form.control}
      render={({ field: f, fieldState }) => (
        <ImageInput
          id={id}
          rule={rule}
          value={fileList(f.value)}
          onBlur={f.onBlur}
          onChange={(files) => {
            f.onChange(files)
            // The spec's messages appear as soon as the choice is made, not only on Submit.
            const problem = files.length === 0 ? NO_FILE_SELECTED : checkFiles(files, rule)
            if (problem) setError(name, { type: 'manual', message: problem })
            else form.clearErrors(name)
          }}
          onCancel={cancelled}
          current={current}
          invalid={fieldState.invalid}
          describedBy={describedBy}
        />
      )}
    />
  )
}

/** One labelled field with its error message underneath (client rule or server `errors`). */
export function FieldControl({ field, form, rule, current }: FieldControlProps) {
  const id = useId()
  const errorId = `${id}-error`
  const message = form.formState.errors[field.name]?.message
  const error = typeof message === 'string' && message !== '' ? message : undefined
  const describedBy = error ? errorId : undefined

  let control
  if (field.kind === 'image') {
    control = <ImageControl field={field} form={form} rule={rule} current={current} id={id} describedBy={describedBy} />
  } else if (field.kind === 'select') {
    control = (
      <Controller
        name={field.name}
        control={form.control}
        render={({ field: f }) => (
          <Select
            id={id}
            value={typeof f.value === 'string' ? f.value : ''}
            onValueChange={f.onChange}
            onBlur={f.onBlur}
            options={field.options}
            placeholder={field.placeholder}
            aria-invalid={error !== undefined}
            aria-describedby={describedBy}
            className="w-full"
          />
        )}
      />
    )
  } else {
    const common = {
      id,
      placeholder: field.placeholder,
      autoComplete: field.autoComplete,
      'aria-invalid': error !== undefined,
      'aria-describedby': describedBy,
      ...form.register(field.name),
    }
    control =
      field.kind === 'textarea' ? (
        <Textarea {...common} />
      ) : (
        <Input {...common} type={field.kind} inputMode={field.kind === 'number' ? 'numeric' : undefined} />
      )
  }

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{field.label}</Label>
      {control}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
