import type { ComponentType } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import type { z } from 'zod/mini'
import type { FileRule } from '#contract/define'
import type { FieldKind, FieldOf, Values } from '../form-fields.ts'

/** What FieldControl hands a field's renderer. */
export interface FieldRenderProps<K extends FieldKind> {
  field: FieldOf<K>
  form: UseFormReturn<Values>
  id: string
  /** The error message's id while there is one. */
  describedBy: string | undefined
  invalid: boolean
  /** The endpoint's rule, for file fields. */
  rule: FileRule | undefined
  /** Not editable and out of the tab order (a pencil not pressed yet). */
  disabled: boolean
  /** Shown and focusable but not editable (a locked field, a View Only session). */
  readOnly: boolean
}

/** One kind of field: where a blank form starts, how the value is checked, and how it renders. */
export interface FieldType<K extends FieldKind> {
  /** The value of a blank form. */
  initial: (field: FieldOf<K>) => unknown
  /**
   * The value's client-side schema, for values the endpoint's input does not describe (files);
   * undefined leaves the endpoint's own rule in charge.
   */
  schema?: (field: FieldOf<K>, rule: FileRule | undefined) => z.ZodMiniType
  /** `file` values go into the multipart files, `input` values into the payload. */
  part: 'input' | 'file'
  render: ComponentType<FieldRenderProps<K>>
}
