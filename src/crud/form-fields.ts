/**
 * Field descriptions for `defineForm`. Value fields name a field of the endpoint's input (checked
 * by the compiler); file fields name a file field of the endpoint (checked when the form is
 * defined), whose FileRule supplies the accepted kinds and the spec's messages.
 */
import type { SelectOption } from '#src/ui/select.tsx'

export type InputKind = 'text' | 'email' | 'url' | 'number' | 'password' | 'textarea'

export interface ValueField<K extends string> {
  kind: InputKind
  name: K
  label: string
  placeholder?: string
  autoComplete?: string
}

export interface SelectField<K extends string> {
  kind: 'select'
  name: K
  label: string
  options: readonly SelectOption[]
  placeholder?: string
}

export interface ImageField {
  kind: 'image'
  name: string
  label: string
}

export type FormField<K extends string> = ValueField<K> | SelectField<K> | ImageField

type Extra = Pick<ValueField<string>, 'placeholder' | 'autoComplete'>

export const text = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'text', name, label, ...extra })
export const number = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'number', name, label, ...extra })
export const textarea = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'textarea', name, label, ...extra })
export const select = <K extends string>(name: K, label: string, options: readonly SelectOption[], placeholder?: string): SelectField<K> =>
  placeholder === undefined ? { kind: 'select', name, label, options } : { kind: 'select', name, label, options, placeholder }
/** A single image upload with a preview; the endpoint's FileRule of the same name applies. */
export const imageUpload = (name: string, label: string): ImageField => ({ kind: 'image', name, label })

export const isImage = (f: FormField<string>): f is ImageField => f.kind === 'image'
