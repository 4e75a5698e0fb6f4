import { useCallback, useId, useState, type ComponentProps } from 'react'
import { Controller, type UseFormReturn } from 'react-hook-form'
import type { FileRule } from '#contract/define'
import { NO_FILE_SELECTED } from '#contract/catalog'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { MultiSelect } from '#src/ui/multi-select.tsx'
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
            // setValue rather than f.onChange: after a first Submit, f.onChange would re-run the
            // schema and replace the message below with the generic 'image is required'.
            form.setValue(name, files, { shouldDirty: true, shouldTouch: true })
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

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])

/** A password input with a show/hide eye; the state is announced through aria-pressed. */
function PasswordInput(props: ComponentProps<'input'>) {
  const [shown, setShown] = useState(false)
  return (
    <div className="relative">
      <Input {...props} type={shown ? 'text' : 'password'} className="pr-10" />
      <button
        type="button"
        aria-label="Show password"
        aria-pressed={shown}
        onClick={() => setShown(!shown)}
        className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
          <circle cx="12" cy="12" r="3" />
          {shown ? null : <path d="M4 4l16 16" />}
        </svg>
      </button>
    </div>
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
  } else if (field.kind === 'multiselect') {
    control = (
      <Controller
        name={field.name}
        control={form.control}
        render={({ field: f }) => (
          <MultiSelect
            id={id}
            value={stringList(f.value)}
            onValueChange={f.onChange}
            onBlur={f.onBlur}
            options={field.options}
            placeholder={field.placeholder}
            aria-invalid={error !== undefined}
            aria-describedby={describedBy}
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
      ) : field.kind === 'password' ? (
        <PasswordInput {...common} />
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
