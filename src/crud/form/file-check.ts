import type { FileKind, FileRule } from '#contract/define'

/** File name endings per kind; the server checks the content as well (magic bytes). */
const EXTENSIONS: Record<FileKind, readonly string[]> = {
  png: ['.png'],
  jpeg: ['.jpeg', '.jpg'],
  mp4: ['.mp4'],
  m4a: ['.m4a'],
  webm: ['.webm'],
}

/** The `accept` attribute for a file input, so the picker offers only acceptable files. */
export const acceptFor = (rule: FileRule): string => rule.kinds.flatMap((k) => EXTENSIONS[k]).join(',')

const hasKind = (name: string, rule: FileRule): boolean => {
  const lower = name.toLowerCase()
  return rule.kinds.some((k) => EXTENSIONS[k].some((ext) => lower.endsWith(ext)))
}

const megabytes = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`

/**
 * Checks chosen files against the endpoint's rule, in the same order the server does, and
 * answers the required message for the first problem (or null). The form runs this before sending
 * so that the common mistakes never cost a round trip; the server still decides.
 */
export function checkFiles(files: readonly File[], rule: FileRule): string | null {
  if (files.length === 0) return rule.required ? (rule.messages.required ?? rule.messages.kind) : null
  if (files.length > rule.max) return rule.messages.tooMany ?? rule.messages.kind
  if (files.some((f) => !hasKind(f.name, rule))) return rule.messages.kind
  // The requirements name no size limit message; this one says what the limit is.
  if (files.some((f) => f.size > rule.maxBytes)) return `Please upload a file of at most ${megabytes(rule.maxBytes)}.`
  return null
}

/** A file field's value: saved files (their URLs, on edit forms) and newly chosen ones. */
export type FileItem = string | File

export const fileItems = (value: unknown): FileItem[] =>
  Array.isArray(value) ? value.filter((v): v is FileItem => typeof v === 'string' || v instanceof File) : []
export const chosenFiles = (value: unknown): File[] => fileItems(value).filter((v): v is File => v instanceof File)
export const savedFiles = (value: unknown): string[] => fileItems(value).filter((v): v is string => typeof v === 'string')

/**
 * Checks a file field's whole value: saved files count toward the rule's maximum and satisfy a
 * requirement; only new files are checked for kind and size. `required` overrides the rule's own
 * (a form may require an image on screen although the endpoint keeps the saved one).
 */
export function checkFileItems(items: readonly FileItem[], rule: FileRule, required = rule.required): string | null {
  if (items.length === 0) return required ? (rule.messages.required ?? rule.messages.kind) : null
  if (items.length > rule.max) return rule.messages.tooMany ?? rule.messages.kind
  return checkFiles(
    items.filter((v): v is File => v instanceof File),
    { ...rule, required: false },
  )
}
