import { Suspense, lazy } from 'react'
import { Controller } from 'react-hook-form'
import type { FieldRenderProps, FieldType } from './types.ts'

// The editor (TipTap, ProseMirror, DOMPurify) is a chunk of its own, fetched the first time a
// rich-text field is shown: no other screen, and no first load, carries it.
const RichTextEditor = lazy(async () => ({ default: (await import('./rich-text-editor.tsx')).RichTextEditor }))

/** Stands where the editor will be while its chunk loads (not editable: typing would be lost). */
function EditorLoading({ describedBy }: { describedBy: string | undefined }) {
  return (
    <div role="status" aria-describedby={describedBy} className="flex min-h-48 items-center justify-center rounded-md border border-slate-300 bg-slate-50 text-sm text-slate-600">
      Loading the editor…
    </div>
  )
}

/** Rich text: the default editor, or the one the field brings, with the form's value, errors and states. */
function RichTextControl({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<'richtext'>) {
  const Editor = field.editor ?? RichTextEditor
  return (
    <Controller
      name={field.name}
      control={form.control}
      render={({ field: f }) => (
        <Suspense fallback={<EditorLoading describedBy={describedBy} />}>
          <Editor
            id={id}
            labelId={`${id}-label`}
            snippets={field.snippets}
            value={typeof f.value === 'string' ? f.value : ''}
            onChange={f.onChange}
            onBlur={f.onBlur}
            invalid={invalid}
            describedBy={describedBy}
            disabled={disabled}
            readOnly={readOnly}
          />
        </Suspense>
      )}
    />
  )
}

export const richTextType: FieldType<'richtext'> = { initial: () => '', part: 'input', render: RichTextControl }
