import { useState, type ComponentProps } from 'react'
import { Input } from '#src/ui/input.tsx'
import { Textarea } from '#src/ui/textarea.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'

type TextKind = 'text' | 'email' | 'url' | 'number' | 'password' | 'textarea'

/** A password input with a show/hide eye; the state is announced through aria-pressed. */
function PasswordInput(props: ComponentProps<'input'>) {
  const [shown, setShown] = useState(false)
  const locked = props.disabled === true || props.readOnly === true
  return (
    <div className="relative">
      <Input {...props} type={shown ? 'text' : 'password'} className="pr-10" />
      <button
        type="button"
        aria-label="Show password"
        aria-pressed={shown}
        disabled={locked}
        onClick={() => setShown(!shown)}
        className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
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

const inputMode = { number: 'numeric', url: 'url', email: 'email' } as const

function TextControl({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<TextKind>) {
  const common = {
    id,
    placeholder: field.placeholder,
    autoComplete: field.autoComplete,
    'aria-invalid': invalid,
    'aria-describedby': describedBy,
    ...form.register(field.name),
    disabled,
    readOnly,
  }
  if (field.kind === 'textarea') return <Textarea {...common} />
  if (field.kind === 'password') return <PasswordInput {...common} />
  const mode = field.kind === 'number' || field.kind === 'url' || field.kind === 'email' ? inputMode[field.kind] : undefined
  // `url` stays a text input: the pattern of requirements R5.1 accepts www-prefixed hosts a URL input would not.
  return <Input {...common} type={field.kind === 'url' ? 'text' : field.kind} inputMode={mode} />
}

/** The text-like kinds: a string value, checked by the endpoint's own schema. */
export const textType = <K extends TextKind>(): FieldType<K> => ({ initial: () => '', part: 'input', render: TextControl })
