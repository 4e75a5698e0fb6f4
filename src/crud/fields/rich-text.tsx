import { Controller } from 'react-hook-form'
import { Textarea } from '#src/ui/textarea.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'

/**
 * Rich text: a slot. Without an editor the HTML is edited as text in a textarea; a field given an
 * `editor` renders that instead, with the same value, errors and states.
 */
function RichTextControl({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<'richtext'>) {
  const Editor = field.editor
  if (!Editor) {
    return (
      <Textarea
        id={id}
        placeholder={field.placeholder}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        className="min-h-40 font-mono"
        {...form.register(field.name)}
        disabled={disabled}
        readOnly={readOnly}
      />
    )
  }
  return (
    <Controller
      name={field.name}
      control={form.control}
      render={({ field: f }) => (
        <Editor
          id={id}
          value={typeof f.value === 'string' ? f.value : ''}
          onChange={f.onChange}
          onBlur={f.onBlur}
          invalid={invalid}
          describedBy={describedBy}
          disabled={disabled}
          readOnly={readOnly}
        />
      )}
    />
  )
}

export const richTextType: FieldType<'richtext'> = { initial: () => '', part: 'input', render: RichTextControl }
