/**
 * The field registry: for each kind of field, in one place, the value a blank form starts with,
 * the schema hook (file kinds check their value against the endpoint's FileRule; other kinds are
 * checked by the endpoint's own input schema), whether the value goes into the payload or the
 * multipart files, and the renderer (src/crud/fields/<kind>.tsx). FieldControl, the forms'
 * defaults, schema and sending all read it; a new kind is one entry here and one file there.
 */
import type { z } from 'zod/mini'
import type { FileRule } from '#contract/define'
import { imageType } from './fields/image.tsx'
import { imagesType } from './fields/images.tsx'
import { multiSelectType, searchMultiSelectType } from './fields/multi-select.tsx'
import { richTextType } from './fields/rich-text.tsx'
import { dateTimeType } from './fields/send-later.tsx'
import { remoteSelectType, selectType } from './fields/select.tsx'
import { switchType } from './fields/switch.tsx'
import { textType } from './fields/text.tsx'
import type { FieldType } from './fields/types.ts'
import { videoType } from './fields/video.tsx'
import { chosenFiles, savedFiles } from './file-check.ts'
import type { FieldKind, FieldOf, FileField, FormField, Values } from './form-fields.ts'

type Registry = { [K in FieldKind]: FieldType<K> }

const registry: Registry = {
  text: textType(),
  email: textType(),
  url: textType(),
  number: textType(),
  password: textType(),
  textarea: textType(),
  select: selectType,
  'remote-select': remoteSelectType,
  switch: switchType,
  multiselect: multiSelectType,
  'search-multiselect': searchMultiSelectType,
  richtext: richTextType,
  datetime: dateTimeType,
  image: imageType,
  images: imagesType,
  video: videoType,
}

/** The registry's entry for a kind. */
export const fieldType = <K extends FieldKind>(kind: K): FieldType<K> => registry[kind]

/** The value a field starts with on a blank form. */
export const initialValue = <K extends FieldKind>(field: FieldOf<K>): unknown => fieldType<K>(field.kind).initial(field)

/** A blank form's values: every field at its kind's starting value. */
export const initialValues = (fields: readonly FormField<string>[]): Values =>
  Object.fromEntries(fields.map((f) => [f.name, initialValue(f)]))

/**
 * A form's starting values: each field's blank value, then the given values (a record's, an add
 * form's initial ones), then the saved files as lists of URLs.
 */
export function startValues(fields: readonly FormField<string>[], values: Values, savedFiles: Record<string, string | readonly string[]> = {}): Values {
  const files = Object.fromEntries(Object.entries(savedFiles).map(([name, saved]) => [name, typeof saved === 'string' ? (saved ? [saved] : []) : [...saved]]))
  return { ...initialValues(fields), ...values, ...files }
}

/**
 * The fields a blank value does not satisfy under `schema` (the form's whole schema): the ones a
 * form marks as required before anyone tries to send it.
 */
export function requiredFields(fields: readonly FormField<string>[], schema: z.ZodMiniObject): ReadonlySet<string> {
  const shape = schema.shape as Record<string, z.ZodMiniType | undefined>
  return new Set(fields.filter((f) => shape[f.name]?.safeParse(initialValue(f)).success === false).map((f) => f.name))
}

/** The schemas the registry adds to the endpoint's input, keyed by field name (file fields). */
export function fieldSchemas(fields: readonly FormField<string>[], rules: Record<string, FileRule>): Record<string, z.ZodMiniType> {
  const shape: Record<string, z.ZodMiniType> = {}
  for (const f of fields) {
    const hook = fieldType(f.kind).schema
    if (hook) shape[f.name] = hook(f, rules[f.name])
  }
  return shape
}

/** Fields whose values travel as multipart files rather than in the payload. */
export const isFilePart = (field: FormField<string>): field is FileField => fieldType(field.kind).part === 'file'

/**
 * The checked values as the call wants them: file fields' new files go to the multipart files
 * (every file field, even empty, so the call is multipart), their kept saved files to the `keep`
 * field when the field names one; every other value, hidden ones included, to the payload.
 */
export function splitValues(fields: readonly FormField<string>[], values: Values): { input: Values; files: Record<string, File[]> } {
  const input: Values = {}
  const files: Record<string, File[]> = {}
  const byName = new Map(fields.map((f) => [f.name, f]))
  for (const [key, value] of Object.entries(values)) {
    const field = byName.get(key)
    if (field && isFilePart(field)) {
      files[key] = chosenFiles(value)
      if (field.keep) input[field.keep] = savedFiles(value)
    } else input[key] = value
  }
  return { input, files }
}
