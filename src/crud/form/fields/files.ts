import { useCallback, useEffect, useRef, useState } from 'react'
import { useWatch } from 'react-hook-form'
import { z } from 'zod/mini'
import type { FileRule } from '#contract/define'
import { NO_FILE_SELECTED } from '#contract/catalog'
import { checkFileItems, checkFiles, chosenFiles, fileItems, savedFiles, type FileItem } from '../file-check.ts'
import type { FieldOf, FileFieldKind } from '../form-fields.ts'
import type { FieldRenderProps, FieldType } from './types.ts'

/** A file field's schema: saved and new files together, checked with the rule and the required messages. */
export const fileSchema = <K extends FileFieldKind>(field: FieldOf<K>, rule: FileRule | undefined): z.ZodMiniType => {
  if (!rule) throw new Error(`The endpoint has no file field "${field.name}"`)
  return z._default(z.array(z.union([z.string(), z.instanceof(File)])), []).check(
    z.superRefine((items, ctx) => {
      const problem = checkFileItems(items, rule, field.required ?? rule.required)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
  )
}

/** What every file kind shares in the registry; only the renderer differs. */
export const fileType = <K extends FileFieldKind>(render: FieldType<K>['render']): FieldType<K> => ({
  initial: () => [],
  schema: fileSchema,
  part: 'file',
  render,
})

/**
 * A file field's value and how to change it: the required messages show as soon as a choice is
 * made, not only on Submit. `saved` are the record's files the form started with.
 */
export function useFileValue({ field, form, rule }: FieldRenderProps<FileFieldKind>) {
  const { name } = field
  const items = fileItems(useWatch({ control: form.control, name }))
  const saved = savedFiles(form.formState.defaultValues?.[name])
  const { setError, getValues } = form
  // Closing the picker without a choice keeps what was there (Chromium does too); with nothing,
  // 'No file selected.' (requirements R5.9) tells why nothing happened.
  const cancelled = useCallback(() => {
    if (fileItems(getValues(name)).length === 0) setError(name, { type: 'manual', message: NO_FILE_SELECTED })
  }, [getValues, setError, name])
  if (!rule) throw new Error(`The endpoint has no file field "${name}"`)
  const set = (next: FileItem[], nothingChosen = false) => {
    // setValue rather than the Controller's onChange: after a first Submit, that would re-run the
    // schema and replace the precise message below with the generic one.
    form.setValue(name, next, { shouldDirty: true, shouldTouch: true })
    const problem = nothingChosen ? NO_FILE_SELECTED : checkFileItems(next, rule, field.required ?? rule.required)
    if (problem) setError(name, { type: 'manual', message: problem })
    else form.clearErrors(name)
  }
  return { items, saved, set, cancelled, rule }
}

/**
 * A one-file field (an image, a video): its value, the file chosen (previewed), and the props of
 * its file input, where clearing the choice brings back the saved file, kept unless replaced.
 */
export function useOneFile(props: FieldRenderProps<'image' | 'video'>) {
  const value = useFileValue(props)
  const previews = usePreviews(value.rule)
  const input = {
    id: props.id,
    rule: value.rule,
    multiple: false,
    onFiles: (files: File[]) => {
      previews.keep(files.slice(0, 1))
      if (files.length === 0) value.set(value.saved, true)
      else value.set(files)
    },
    onCancel: value.cancelled,
    invalid: props.invalid,
    describedBy: props.describedBy,
    disabled: props.disabled,
  }
  return { ...value, previews, chosen: chosenFiles(value.items)[0], input }
}

/**
 * Object URLs for previews of chosen files: made when a file is chosen (in the event, not during
 * render), revoked when it is dropped and when the field goes away.
 */
export function usePreviews(rule: FileRule | undefined) {
  const live = useRef(new Map<File, string>())
  const [urls, setUrls] = useState<ReadonlyMap<File, string>>(new Map())
  useEffect(() => {
    const current = live.current
    return () => {
      for (const url of current.values()) URL.revokeObjectURL(url)
      current.clear()
    }
  }, [])
  /** Keeps previews for exactly these files; a file of another kind gets none (it would not display). */
  const keep = (files: readonly File[]) => {
    const map = live.current
    for (const [file, url] of map) {
      if (!files.includes(file)) {
        URL.revokeObjectURL(url)
        map.delete(file)
      }
    }
    for (const file of files) {
      if (!map.has(file) && rule && checkFiles([file], { ...rule, max: 1 }) === null) map.set(file, URL.createObjectURL(file))
    }
    setUrls(new Map(map))
  }
  return { urlOf: (file: File): string | undefined => urls.get(file), keep }
}
