/**
 * Field descriptions for the kit's forms. Value fields name a field of the endpoint's input
 * (checked by the compiler); file fields name a file field of the endpoint (checked when the form
 * is defined), whose FileRule supplies the accepted kinds, the count and the required messages.
 * What each kind starts with, how it is checked and how it renders lives in field-registry.ts.
 */
import type { ComponentType } from 'react'
import type { SelectOption } from '#src/ui/select.tsx'

/** Form values as react-hook-form holds them. */
export type Values = Record<string, unknown>

/** Options a field gets from a call (see fields/options-source.ts), with its loading and error states. */
export type OptionsState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void }
  | { status: 'ready'; options: readonly SelectOption[] }

export interface OptionSource {
  /** A hook: called once per render of the field that shows the options. */
  useOptions: () => OptionsState
}

/** A piece of text a rich-text field offers to insert at the cursor (a template's `{{otp}}`). */
export interface Snippet {
  /** What is inserted, and the button's text. */
  text: string
  /** What it stands for, said beside it. */
  description: string
  /** Marked as needed (a template is refused without it). */
  required?: boolean
}

/** What a rich-text editor gets (see richText): the default one, or another given to the field. */
export interface RichTextEditorProps {
  id: string
  /** The id of the field's visible label (a contenteditable is not labelable by `for`). */
  labelId: string
  /** Offered for insertion below the editor, when given. */
  snippets?: readonly Snippet[] | undefined
  value: string
  onChange: (html: string) => void
  onBlur: () => void
  invalid: boolean
  describedBy: string | undefined
  disabled: boolean
  readOnly: boolean
}

/**
 * A per-field action of a single-record form, such as Social Links' delete: a button beside the
 * field that asks `confirm` first, then runs. `clears` empties the field once it succeeded.
 */
export interface FieldAction {
  label: string
  icon: 'trash'
  confirm: string
  /** Said under the question (that the write can be undone). */
  note?: string | undefined
  /** Said first under the question, from the form as it is (what is about to go, and what that does). */
  explain?: ((name: string, values: Values) => string) | undefined
  /** Answers the message, and the undo ticket of an undoable write (src/crud/writes/undo.ts). */
  run: (name: string, values: Values) => Promise<{ message: string; undo?: unknown }>
  clears: boolean
}

/** Extra settings of each kind, keyed by kind. */
interface KindSettings {
  text: { autoComplete?: string }
  email: { autoComplete?: string }
  url: { autoComplete?: string }
  number: { autoComplete?: string }
  password: { autoComplete?: string }
  textarea: { autoComplete?: string }
  select: { options: readonly SelectOption[] }
  'remote-select': { source: OptionSource }
  switch: object
  /** A short list of choices in a menu (Create User's Access). */
  multiselect: { options: readonly SelectOption[] }
  /**
   * A long list: searchable, windowed past a few hundred options (countries, subscribers). `all`
   * names a first option that selects every option, and clears them all when unchecked; it is
   * never a value itself (Add Restriction: "the value '*' is never sent").
   */
  'search-multiselect': ({ options: readonly SelectOption[] } | { source: OptionSource }) & { all?: string }
  richtext: { editor?: ComponentType<RichTextEditorProps>; snippets?: readonly Snippet[] }
  /** A local date and time, with its UTC time beside it ("Send later", src/crud/form/fields/send-later.tsx). */
  datetime: object
  image: FileSettings
  images: FileSettings
  video: FileSettings
}

interface FileSettings {
  /** On-screen requirement when it differs from the endpoint's rule (edit: kept files count). */
  required?: boolean
  /** Input field that carries the saved files still kept, when the endpoint reads one. */
  keep?: string
}

export type FieldKind = keyof KindSettings
export type FileFieldKind = 'image' | 'images' | 'video'
export const fileKinds: readonly FieldKind[] = ['image', 'images', 'video']

/** What every field says, whatever its kind. */
interface Common<K extends FieldKind, N extends string> {
  kind: K
  name: N
  label: string
  placeholder?: string
  /** Shown only while this holds (Access only when the user type is not Admin); hidden fields keep their value. */
  when?: (values: Values) => boolean
  /**
   * Single-record forms: `lock` keeps the field read-only until its unlock toggle is pressed
   * (Social Links); `pencil` keeps it disabled until its pencil is pressed (Version).
   */
  guard?: 'lock' | 'pencil'
  action?: FieldAction
  /** A short line under the field saying what it does (Forced Liquidation); read with the field by screen readers. */
  hint?: string
}

/** A field of kind K; file kinds take any name (checked against the endpoint's files instead). */
export type FieldOf<K extends FieldKind, N extends string = string> = Common<K, K extends FileFieldKind ? string : N> & KindSettings[K]

export type FormField<N extends string> = { [K in FieldKind]: FieldOf<K, N> }[FieldKind]

type Extra = Pick<Common<'text', string>, 'placeholder' | 'when' | 'guard' | 'action' | 'hint'> & { autoComplete?: string }
type Shared = Pick<Common<'text', string>, 'placeholder' | 'when' | 'guard' | 'action' | 'hint'>

export const text = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'text', N> => ({ kind: 'text', name, label, ...extra })
export const email = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'email', N> => ({ kind: 'email', name, label, ...extra })
/** A link: the contract's URL pattern decides ('Incorrect format'). */
export const url = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'url', N> => ({ kind: 'url', name, label, ...extra })
export const number = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'number', N> => ({ kind: 'number', name, label, ...extra })
/** A password input with a show/hide control. */
export const password = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'password', N> => ({ kind: 'password', name, label, ...extra })
export const textarea = <N extends string>(name: N, label: string, extra: Extra = {}): FieldOf<'textarea', N> => ({ kind: 'textarea', name, label, ...extra })
export const select = <N extends string>(name: N, label: string, options: readonly SelectOption[], extra: Shared = {}): FieldOf<'select', N> => ({
  kind: 'select',
  name,
  label,
  options,
  ...extra,
})
/** A select whose options come from a call (the category dropdown), with its loading and error states. */
export const remoteSelect = <N extends string>(name: N, label: string, source: OptionSource, extra: Shared = {}): FieldOf<'remote-select', N> => ({
  kind: 'remote-select',
  name,
  label,
  source,
  ...extra,
})
/** On or off; the value is a boolean. */
export const dateTime = <N extends string>(name: N, label: string, extra: Shared = {}): FieldOf<'datetime', N> => ({ kind: 'datetime', name, label, ...extra })
export const switchField = <N extends string>(name: N, label: string, extra: Shared = {}): FieldOf<'switch', N> => ({ kind: 'switch', name, label, ...extra })
/**
 * Several choices of a short list; the value is a string array. Values that are not options (pages
 * a rule added) are kept as they are and not shown as choices.
 */
export const multiSelect = <N extends string>(name: N, label: string, options: readonly SelectOption[], extra: Shared = {}): FieldOf<'multiselect', N> => ({
  kind: 'multiselect',
  name,
  label,
  options,
  ...extra,
})
/** Several choices of a long list, searchable; options given or loaded from a call. */
export const searchMultiSelect = <N extends string>(
  name: N,
  label: string,
  from: readonly SelectOption[] | OptionSource,
  extra: Shared & { all?: string } = {},
): FieldOf<'search-multiselect', N> =>
  'useOptions' in from ? { kind: 'search-multiselect', name, label, source: from, ...extra } : { kind: 'search-multiselect', name, label, options: from, ...extra }
/**
 * Rich text (HTML): a WYSIWYG editor (fields/rich-text-editor.tsx, TipTap), loaded as its own chunk
 * the first time such a field is shown; `snippets` adds click-to-insert texts below it, `editor`
 * swaps the renderer without touching the form.
 */
export const richText = <N extends string>(
  name: N,
  label: string,
  extra: Shared & { editor?: ComponentType<RichTextEditorProps>; snippets?: readonly Snippet[] } = {},
): FieldOf<'richtext', N> => ({
  kind: 'richtext',
  name,
  label,
  ...extra,
})
/** A single image upload with a preview; the endpoint's FileRule of the same name applies. */
export const imageUpload = (name: string, label: string, extra: FileSettings & Shared = {}): FieldOf<'image'> => ({ kind: 'image', name, label, ...extra })
/** Several images, up to the FileRule's count: saved ones shown with remove, new ones previewed. */
export const imagesUpload = (name: string, label: string, extra: FileSettings & Shared = {}): FieldOf<'images'> => ({ kind: 'images', name, label, ...extra })
/** One video (mp4, m4a, webm) with a player to preview it. */
export const videoUpload = (name: string, label: string, extra: FileSettings & Shared = {}): FieldOf<'video'> => ({ kind: 'video', name, label, ...extra })

export type FileField = FieldOf<'image'> | FieldOf<'images'> | FieldOf<'video'>

export const isFileField = (f: FormField<string>): f is FileField => fileKinds.includes(f.kind)
