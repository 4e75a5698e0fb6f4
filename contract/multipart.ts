import { z } from 'zod/mini'
import { preprocess } from './common.ts'
import type { FileRule } from './define.ts'

/**
 * Helpers for multipart calls (games, promotions, homepage content, settings). Multipart text
 * fields always arrive as strings, so flags and lists need their own parsing.
 */

export const MB = 1024 * 1024

/** A file size in the words of an upload's refusal and of a file field's hint ("5 MB": megabytes of 1024 KiB). */
export function sizeWords(bytes: number): string {
  if (bytes >= MB) return `${Math.floor(bytes / MB)} MB`
  return bytes >= 1024 ? `${Math.floor(bytes / 1024)} KB` : `${bytes} bytes`
}

/** One or more .png/.jpeg/.jpg images with the given required messages. */
export const imageFiles = (rule: {
  max: number
  required: boolean
  kind: string
  requiredMessage?: string
  tooMany?: string
}): FileRule => ({
  kinds: ['png', 'jpeg'],
  max: rule.max,
  required: rule.required,
  maxBytes: 5 * MB,
  messages: {
    ...(rule.requiredMessage === undefined ? {} : { required: rule.requiredMessage }),
    kind: rule.kind,
    ...(rule.tooMany === undefined ? {} : { tooMany: rule.tooMany }),
  },
})

/** The promotion and homepage image message of requirements R5.3 (the two spaces before ".png" are required). */
export const IMAGE_KIND_MESSAGE = 'Please upload file having extensions  .png,.jpeg,.jpg only.'

/**
 * A boolean sent as the text 'true' or 'false' (multipart has no booleans). Real booleans are
 * accepted too, so the same schema serves a JSON body.
 */
export const formFlag = (message = 'Incorrect format') =>
  z.pipe(
    z._default(z.union([z.boolean(), z.enum(['true', 'false'])], { error: message }), 'false'),
    z.transform((v) => v === true || v === 'true'),
  )

/**
 * A list of ids in a multipart field: a repeated field (an array), one field holding a JSON array,
 * or a single id. A JSON body may send a plain array.
 */
export const formList = <T extends z.core.SomeType>(item: T, message: string) =>
  preprocess((v: unknown) => {
    if (typeof v !== 'string') return v
    const text = v.trim()
    if (text === '') return []
    if (!text.startsWith('[')) return [text]
    try {
      const parsed: unknown = JSON.parse(text)
      return parsed
    } catch {
      // Left as the text: the array check below then reports the required message.
      return v
    }
  }, z.array(item, { error: message }))
