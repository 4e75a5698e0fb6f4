/**
 * Multipart uploads: every file is streamed to a temporary file under DATA_DIR/tmp, counted
 * against its rule, identified by its first bytes (never by the client's name or type), and only
 * then stored under a name the server chooses (server/kit/ground/storage.ts: DATA_DIR/uploads or an S3
 * bucket). A file past its byte limit stops the call at once (413, the partial file removed); an
 * image must decode within the pixel limit, is stored without its metadata (EXIF, GPS...) and
 * gets a thumbnail beside it (server/kit/ground/media.ts); a video or audio file is stored with its
 * metadata boxes emptied, not encoded again (server/kit/ground/media-metadata.ts).
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { FieldErrors } from '#contract/common'
import type { FileKind, FileRule } from '#contract/define'
import { sizeWords } from '#contract/multipart'
import type { MediaLimits } from '../../config.ts'
import { byteLimit, checkImage, cleanImage, isImage, makeThumbnail, thumbOf, tooManyPixels } from './media.ts'
import { cleanMedia, MediaUnreadable } from './media-metadata.ts'
import type { ObjectStorage } from './storage.ts'

/** A checked upload, in the storage as `name`; `url` is what answers show (/uploads/<name>). */
export interface StoredFile {
  field: string
  name: string
  url: string
  kind: FileKind
  bytes: number
  /** The thumbnail's name beside it (images only). */
  thumb: string | null
}

interface TempFile {
  field: string
  path: string
  kind: FileKind
  bytes: number
  /** The thumbnail made from it, beside it in the staging folder (images only). */
  thumb: string | null
}

export interface MultipartResult {
  /** Text fields; a repeated field becomes an array. */
  fields: Record<string, string | string[]>
  temps: TempFile[]
  errors: FieldErrors
  /** A file was larger than its rule allows: the answer is 413 rather than 400. */
  tooLarge: boolean
}

const EXTENSION: Record<FileKind, string> = { png: 'png', jpeg: 'jpg', mp4: 'mp4', m4a: 'm4a', webm: 'webm' }
/** ISO base-media brands of audio-only files; any other known brand is a video. */
const M4A_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A '])
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'M4V ', 'MSNV', 'mmp4', 'f4v ', '3gp4', '3gp5', '3g2a'])
const HEAD_BYTES = 64

/** The kind of a file from its first bytes, or null when it is none we accept. */
export function sniff(head: Buffer): FileKind | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg'
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12)
    if (M4A_BRANDS.has(brand)) return 'm4a'
    if (MP4_BRANDS.has(brand)) return 'mp4'
    return null
  }
  // WebM is Matroska (EBML magic) whose DocType element says "webm", near the start.
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3 && head.includes('webm', 4, 'latin1')) return 'webm'
  return null
}

const TOO_LARGE = (limit: number): string => `File is too large: at most ${sizeWords(limit)}`

/** Images past this declare an absurd size when no limit is configured. */
export const DEFAULT_MAX_PIXELS = 50_000_000

/** Thrown from inside the stream when a file passes its limit, to stop reading it at once. */
class PastLimit extends Error {}

/** The form's text is larger than its schema allows (FormBounds): the call is answered 413. */
export class FormTooLarge extends Error {
  constructor() {
    super(FORM_TOO_LARGE)
  }
}

/** A file passed its byte limit: the call is answered 413 with this message under the field. */
export class UploadTooLarge extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message)
  }
}

/** Parser limits a malformed or hostile multipart body hits before it costs much. */
export const MULTIPART_LIMITS = { fields: 50, fieldSize: 1024 * 1024, parts: 100, headerPairs: 200 }

/** The refusal of a form whose text fields are more or larger than its endpoint's schema allows. */
export const FORM_TOO_LARGE = 'Too many or too large parts in the form'

/**
 * Bounds of a multipart form's text fields, derived from the endpoint's input schema:
 * a form carries what the schema can accept and little more, so a hostile body cannot
 * make the server hold many megabytes of text before the schema refuses it.
 */
export interface FormBounds {
  /** Text fields in one form (a list field may repeat, once per item). */
  fields: number
  /** Bytes of the largest one field. */
  fieldSize: number
  /** Bytes of all text fields together. */
  textBytes: number
}

/** A text value the schema does not bound (an unknown, an unlimited string) may take this much. */
const UNBOUNDED_TEXT = 64 * 1024
/** A list the schema does not bound may hold this many items. */
const UNBOUNDED_LIST = 1000
/** Numbers, flags and the like, as text. */
const SCALAR_BYTES = 64
/** Blanks around a value that `.trim()` removes before the length check. */
const TRIM_SLACK = 256
/** Fields the schema does not name (the parse drops them): a few small ones are let through. */
const EXTRA_FIELDS = 8

interface ValueBound {
  /** Bytes of the value as one field (a list as JSON). */
  bytes: number
  /** Fields it may take (a list sent as repeated fields). */
  repeats: number
}

/** The longest UTF-8 form of `units` UTF-16 code units (a surrogate pair, 2 units, is 4 bytes). */
const utf8Bytes = (units: number): number => units * 3

/** The longest a string or list of `schema` may be (its max_length and length_equals checks), or null. */
function maxLengthCheck(schema: z.core.$ZodType): number | null {
  let max: number | null = null
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def
    const bound = def.check === 'max_length' && 'maximum' in def ? def.maximum : def.check === 'length_equals' && 'length' in def ? def.length : undefined
    if (typeof bound === 'number') max = Math.min(max ?? bound, bound)
  }
  return max
}

/**
 * How large a value of `schema` can be when sent as multipart text; UNBOUNDED_TEXT where it does
 * not say. Walks zod's core classes and defs, so the contract's zod/mini schemas and classic zod
 * ones are read alike.
 */
function valueBound(schema: z.core.$ZodType, depth = 0): ValueBound {
  const one = (bytes: number): ValueBound => ({ bytes: Math.min(bytes, UNBOUNDED_TEXT), repeats: 1 })
  if (depth > 20) return one(UNBOUNDED_TEXT)
  if (schema instanceof z.core.$ZodString) {
    const maxLength = maxLengthCheck(schema)
    return one(maxLength === null ? UNBOUNDED_TEXT : utf8Bytes(maxLength) + TRIM_SLACK)
  }
  if (schema instanceof z.core.$ZodNumber || schema instanceof z.core.$ZodBoolean || schema instanceof z.core.$ZodBigInt || schema instanceof z.core.$ZodDate) return one(SCALAR_BYTES)
  if (schema instanceof z.core.$ZodEnum) return one(Math.max(SCALAR_BYTES, ...[...schema._zod.values].map((o) => utf8Bytes(String(o).length))))
  if (schema instanceof z.core.$ZodLiteral) return one(Math.max(SCALAR_BYTES, ...schema._zod.def.values.map((v) => utf8Bytes(String(v).length))))
  if (
    schema instanceof z.core.$ZodOptional ||
    schema instanceof z.core.$ZodNullable ||
    schema instanceof z.core.$ZodDefault ||
    schema instanceof z.core.$ZodPrefault ||
    schema instanceof z.core.$ZodCatch ||
    schema instanceof z.core.$ZodReadonly ||
    schema instanceof z.core.$ZodNonOptional
  ) {
    return valueBound(schema._zod.def.innerType, depth + 1)
  }
  // A preprocess reads the text itself and hands the result on: the output side bounds it. Any
  // other pipe is bounded by what it takes in.
  if (schema instanceof z.core.$ZodPipe) return valueBound(pipeSide(schema), depth + 1)
  if (schema instanceof z.core.$ZodUnion) {
    const options = schema._zod.def.options.map((o) => valueBound(o, depth + 1))
    return { bytes: Math.max(...options.map((o) => o.bytes)), repeats: Math.max(...options.map((o) => o.repeats)) }
  }
  if (schema instanceof z.core.$ZodArray) {
    const item = valueBound(schema._zod.def.element, depth + 1)
    const items = maxLengthCheck(schema) ?? UNBOUNDED_LIST
    // As one field it is a JSON array: quotes and a comma per item, and the brackets.
    return { bytes: items * (item.bytes + 3) + 2, repeats: items }
  }
  if (schema instanceof z.core.$ZodObject) {
    // Sent as a JSON text in one field (games' categoryName): its members, their names and punctuation.
    const members = Object.entries(schema._zod.def.shape).map(([key, member]) => valueBound(member, depth + 1).bytes + key.length + 6)
    return one(members.reduce((a, b) => a + b, 2))
  }
  return one(UNBOUNDED_TEXT)
}

/** The side of a pipe that bounds its value: a preprocess's output side, any other pipe's input side. */
const pipeSide = (pipe: z.core.$ZodPipe): z.core.$ZodType => (pipe._zod.def.in instanceof z.core.$ZodTransform ? pipe._zod.def.out : pipe._zod.def.in)

/** The text-field bounds of a multipart endpoint, from its input schema (computed once, at start). */
export function formBounds(input: z.core.$ZodType): FormBounds {
  let object: z.core.$ZodType = input
  for (let depth = 0; depth < 10 && !(object instanceof z.core.$ZodObject); depth++) {
    if (object instanceof z.core.$ZodPipe) object = pipeSide(object)
    else if (object instanceof z.core.$ZodOptional || object instanceof z.core.$ZodDefault) object = object._zod.def.innerType
    else break
  }
  if (!(object instanceof z.core.$ZodObject)) return { fields: MULTIPART_LIMITS.fields, fieldSize: MULTIPART_LIMITS.fieldSize, textBytes: MULTIPART_LIMITS.fields * MULTIPART_LIMITS.fieldSize }
  const bounds = Object.values(object._zod.def.shape).map((member) => valueBound(member))
  const fieldSize = Math.max(SCALAR_BYTES, ...bounds.map((b) => b.bytes))
  return {
    fields: bounds.reduce((n, b) => n + b.repeats, EXTRA_FIELDS),
    fieldSize,
    textBytes: bounds.reduce((n, b) => n + b.bytes, EXTRA_FIELDS * SCALAR_BYTES),
  }
}

/**
 * Reads a multipart body against the endpoint's file rules. Never throws for bad content: it
 * reports field errors instead. Throws only for a broken body (the caller answers 400) after
 * removing what it wrote.
 */
export async function readMultipart(
  request: FastifyRequest,
  rules: Record<string, FileRule>,
  tmpDir: string,
  media?: MediaLimits,
  bounds: FormBounds = { fields: MULTIPART_LIMITS.fields, fieldSize: MULTIPART_LIMITS.fieldSize, textBytes: MULTIPART_LIMITS.fields * MULTIPART_LIMITS.fieldSize },
): Promise<MultipartResult> {
  await mkdir(tmpDir, { recursive: true })
  const result: MultipartResult = { fields: {}, temps: [], errors: {}, tooLarge: false }
  const counts = new Map<string, number>()
  const maxPixels = media?.maxPixels ?? DEFAULT_MAX_PIXELS
  const largest = Math.max(0, ...Object.values(rules).map((r) => byteLimit(r, media)))
  const maxFiles = Object.values(rules).reduce((n, r) => n + r.max, 0)
  // The file being written, so a body cut off mid-file leaves no temp file behind.
  let writing: string | null = null
  try {
    const parts = request.parts({
      // One byte over the largest rule lets us tell "too large" from "exactly at the limit".
      // (app.ts registers multipart with throwFileSizeLimit: false: we report sizes ourselves.)
      // Text fields as the schema bounds them (formBounds); parts: every field and file allowed.
      limits: { ...MULTIPART_LIMITS, fields: bounds.fields, fieldSize: bounds.fieldSize, parts: bounds.fields + maxFiles + 5, fileSize: largest + 1, files: maxFiles + 5 },
    })
    let textBytes = 0
    for await (const part of parts) {
      if (part.type === 'field') {
        // A field cut at fieldSize would parse as a shorter, wrong value: refuse it instead.
        if (part.valueTruncated || part.fieldnameTruncated) throw new FormTooLarge()
        const value = typeof part.value === 'string' ? part.value : String(part.value)
        textBytes += Buffer.byteLength(value) + Buffer.byteLength(part.fieldname)
        if (textBytes > bounds.textBytes) throw new FormTooLarge()
        const previous = result.fields[part.fieldname]
        result.fields[part.fieldname] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
        continue
      }
      const rule = rules[part.fieldname]
      const seen = (counts.get(part.fieldname) ?? 0) + 1
      if (rule === undefined || seen > rule.max) {
        // Read and drop it, so the parts after it are still parsed.
        await pipeline(part.file, new Writable({ write: (_chunk, _encoding, callback) => callback() }))
        if (rule === undefined) result.errors[part.fieldname] ??= 'Unexpected file'
        else result.errors[part.fieldname] ??= rule.messages.tooMany ?? rule.messages.kind
        continue
      }
      const path = join(tmpDir, `${randomUUID()}.part`)
      const limit = byteLimit(rule, media)
      writing = path
      let bytes = 0
      let head = Buffer.alloc(0)
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)])
          // Past the limit the call ends here: nothing more is read into the file or waited for.
          callback(bytes > limit ? new PastLimit() : null, chunk)
        },
      })
      try {
        await pipeline(part.file, counter, createWriteStream(path, { flags: 'wx', mode: 0o600 }))
      } catch (error) {
        if (!(error instanceof PastLimit)) throw error
        throw new UploadTooLarge(part.fieldname, TOO_LARGE(limit))
      }
      writing = null
      // A browser sends an empty, nameless part when no file was chosen: that is "no file".
      if (bytes === 0 && part.filename === '') {
        await rm(path, { force: true })
        continue
      }
      counts.set(part.fieldname, seen)
      const kind = part.file.truncated ? null : sniff(head)
      if (part.file.truncated) {
        result.tooLarge = true
        result.errors[part.fieldname] ??= TOO_LARGE(limit)
        await rm(path, { force: true })
      } else if (kind === null || !rule.kinds.includes(kind)) {
        result.errors[part.fieldname] ??= rule.messages.kind
        await rm(path, { force: true })
      } else {
        const checked = isImage(kind) ? await checkedImage(path, kind, maxPixels, rule) : await checkedMedia(path, kind, bytes, rule)
        if ('bytes' in checked) {
          result.temps.push({ field: part.fieldname, path, kind, bytes: checked.bytes, thumb: isImage(kind) ? thumbOf(path) : null })
        } else {
          result.errors[part.fieldname] ??= checked.refused
          await discard([{ path }])
        }
      }
    }
  } catch (error) {
    await discard(writing === null ? result.temps : [...result.temps, { path: writing }])
    throw error
  }
  return result
}

/**
 * Empties a video or audio file's metadata in place (media-metadata.ts): its size (unchanged), or
 * the error to show when its structure does not parse.
 */
async function checkedMedia(path: string, kind: 'mp4' | 'm4a' | 'webm', bytes: number, rule: FileRule): Promise<{ bytes: number } | { refused: string }> {
  try {
    await cleanMedia(path, kind)
    return { bytes }
  } catch (error) {
    if (error instanceof MediaUnreadable) return { refused: rule.messages.kind }
    throw error
  }
}

/**
 * Checks an image's declared size, rewrites it without its metadata (media.ts, cleanImage) and
 * makes its thumbnail from the cleaned file: its size then, or the error to show.
 */
async function checkedImage(path: string, kind: 'png' | 'jpeg', maxPixels: number, rule: FileRule): Promise<{ bytes: number } | { refused: string }> {
  const problem = await checkImage(path, maxPixels)
  if (problem === 'pixels') return { refused: tooManyPixels(maxPixels) }
  if (problem === 'broken') return { refused: rule.messages.kind }
  try {
    const bytes = await cleanImage(path, kind, maxPixels)
    await makeThumbnail(path, thumbOf(path), maxPixels)
    return { bytes }
  } catch {
    return { refused: rule.messages.kind }
  }
}

/** The files a rule requires but the body did not carry, as field errors. */
export function missingFiles(rules: Record<string, FileRule>, temps: readonly TempFile[], errors: FieldErrors): FieldErrors {
  const missing: FieldErrors = {}
  for (const [field, rule] of Object.entries(rules)) {
    if (rule.required && errors[field] === undefined && !temps.some((t) => t.field === field)) {
      missing[field] = rule.messages.required ?? rule.messages.kind
    }
  }
  return missing
}

/** Stores checked files under server-chosen names, each thumbnail beside its original. */
export async function promote(temps: readonly TempFile[], storage: ObjectStorage): Promise<StoredFile[]> {
  const stored: StoredFile[] = []
  try {
    for (const temp of temps) {
      const name = `${randomUUID()}.${EXTENSION[temp.kind]}`
      // The thumbnail first: a stored original then always has its thumbnail.
      if (temp.thumb !== null) await storage.putFile(thumbOf(name), temp.thumb)
      stored.push({ field: temp.field, name, url: uploadUrl(name), kind: temp.kind, bytes: temp.bytes, thumb: temp.thumb === null ? null : thumbOf(name) })
      await storage.putFile(name, temp.path)
    }
  } catch (error) {
    await unstore(storage, stored)
    await discard(temps)
    throw error
  }
  return stored
}

/** Removes staged files and the thumbnails beside them. */
export async function discard(files: readonly { path: string }[]): Promise<void> {
  await Promise.all(files.flatMap((f) => [rm(f.path, { force: true }), rm(thumbOf(f.path), { force: true })]))
}

/** Removes stored files and their thumbnails (a write that stored them did not commit). */
export async function unstore(storage: ObjectStorage, files: readonly { name: string }[]): Promise<void> {
  await Promise.all(files.flatMap((f) => [storage.remove(f.name), storage.remove(thumbOf(f.name))]))
}

/** The URL an uploaded file is served at. */
export const uploadUrl = (name: string): string => `/uploads/${name}`

/** The URL of an uploaded image's thumbnail. */
export const thumbUrl = (name: string): string => uploadUrl(thumbOf(name))

/** The stored name behind an upload URL made by `uploadUrl`, or null for anything else. */
export const storedName = (url: string): string | null => (/^\/uploads\/([0-9a-f-]{36}\.(png|jpg|mp4|m4a|webm))$/.exec(url)?.[1] ?? null)

/**
 * Removes an upload and its thumbnail by its stored name. Only a bare name made by `promote` is
 * accepted, so a value from the database can never name anything else in the storage.
 */
export async function removeUpload(storage: ObjectStorage, name: string): Promise<void> {
  if (!/^[0-9a-f-]{36}\.(png|jpg|mp4|m4a|webm)$/.test(name)) return
  await unstore(storage, [{ name }])
}
