/**
 * Field descriptions for `defineForm`. Value fields name a field of the endpoint's input (checked
 * by the compiler); file fields name a file field of the endpoint (checked when the form is
 * defined), whose FileRule supplies the accepted kinds and the spec's messages.
 */
import type { SelectOption } from '#src/ui/select.tsx'

export type InputKind = 'text' | 'email' | 'url' | 'number' | 'password' | 'textarea'

/** What every value field may say: whether it shows, given the form's current values. */
interface Shown {
  /** Shown only while this holds (Access only when the user type is not Admin); hidden fields keep their value. */
  when?: (values: Record<string, unknown>) => boolean
}

export interface ValueField<K extends string> extends Shown {
  kind: InputKind
  name: K
  label: string
  placeholder?: string
  autoComplete?: string
}

export interface SelectField<K extends string> extends Shown {
  kind: 'select'
  name: K
  label: string
  options: readonly SelectOption[]
  placeholder?: string
}

/**
 * Several choices of a list; the value is a string array. Values that are not options (pages a
 * rule added) are kept as they are and not shown as choices.
 */
export interface MultiSelectField<K extends string> extends Shown {
  kind: 'multiselect'
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

export type FormField<K extends string> = ValueField<K> | SelectField<K> | MultiSelectField<K> | ImageField

type Extra = Pick<ValueField<string>, 'placeholder' | 'autoComplete' | 'when'>

export const text = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'text', name, label, ...extra })
export const number = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'number', name, label, ...extra })
export const textarea = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'textarea', name, label, ...extra })
export const select = <K extends string>(name: K, label: string, options: readonly SelectOption[], placeholder?: string): SelectField<K> =>
  placeholder === undefined ? { kind: 'select', name, label, options } : { kind: 'select', name, label, options, placeholder }
export const email = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'email', name, label, ...extra })
/** A password input with a show/hide control. */
export const password = <K extends string>(name: K, label: string, extra: Extra = {}): ValueField<K> => ({ kind: 'password', name, label, ...extra })
export const multiSelect = <K extends string>(
  name: K,
  label: string,
  options: readonly SelectOption[],
  extra: Pick<MultiSelectField<K>, 'placeholder' | 'when'> = {},
): MultiSelectField<K> => ({ kind: 'multiselect', name, label, options, ...extra })
/** A single image upload with a preview; the endpoint's FileRule of the same name applies. */
export const imageUpload = (name: string, label: string): ImageField => ({ kind: 'image', name, label })

export const isImage = (f: FormField<string>): f is ImageField => f.kind === 'image'
