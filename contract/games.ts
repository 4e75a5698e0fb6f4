import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, count, integer, ok, optionalText, pageOf, required, requiredUrl, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes, type FileRule } from './define.ts'
import { MB, formFlag, formList, imageFiles } from './multipart.ts'
import { Deleted, undoable } from './undo.ts'
import * as self from './games.ts'

/** Requirements R9.7: Android, ios, both. */
export const operatingSystems = ['Android', 'ios', 'both'] as const
export const OperatingSystem = z.enum(operatingSystems)
export type OperatingSystem = z.output<typeof OperatingSystem>

/**
 * Requirements R3.9, Game. The original name of the game-backend flag carries a third-party
 * provider's name; we call it `isGameBackend` everywhere (payload and record).
 * `image` and `video` are the URLs the server serves the uploads at ('' when no video).
 * `operatingsystem` may be empty on old records (the list then shows '--').
 */
export const Game = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  categoryName: z.object({ _id: z.string(), categoryName: z.string() }),
  operatingsystem: z.union([OperatingSystem, z.literal('')]),
  liveLink: z.string(),
  image: z.array(z.string()),
  /** Ours: a small preview of each image, in the same order, for lists (the originals are for the forms). */
  thumbnails: z.array(z.string()),
  video: z.string(),
  preference: integer(),
  isGameBackend: z.boolean(),
  freeze: z.boolean(),
  /** Ours: the edit version (common.ts, RECORD_CHANGED). */
  version: RecordVersion,
})
export type Game = z.output<typeof Game>

/** Requirements R9.6: up to 5 images per game. */
export const MAX_GAME_IMAGES = 5

/** Requirements R5.8, game images: .png/.jpeg/.jpg, at most 5. */
export const gameImages = (isRequired: boolean): FileRule =>
  imageFiles({
    max: MAX_GAME_IMAGES,
    required: isRequired,
    requiredMessage: 'image is required',
    kind: 'Please upload file(s) with .png, .jpeg, .jpg extensions only.',
    tooMany: 'You can upload a maximum of 5 images.',
  })

/**
 * Requirements R5.8, game video: one .mp4/.m4a/.webm file, optional. The size is the default the
 * form checks; the server's own limit is set by its environment (docs/operations.md, "Configuration").
 */
export const gameVideo: FileRule = {
  kinds: ['mp4', 'm4a', 'webm'],
  max: 1,
  required: false,
  maxBytes: 200 * MB,
  messages: { kind: 'Please upload file(s) with .mp4, .m4a, .webm extensions only.' },
}

const CATEGORY_REQUIRED = 'category Name is required'

/** A required operating system; '' (what an old record holds) is accepted as input and refused as missing. */
const requiredOs = (message: string) => {
  const os = z.enum([...operatingSystems, ''], { error: message })
  // The check leaves a real system, and the output type says so (as classic zod's `.refine` with a type guard did).
  return os.check(z.refine((v) => v !== '', message)) as z.core.$ZodNarrow<typeof os, OperatingSystem>
}

/**
 * Edit sends categoryName as a JSON string of the category (`{"_id":..,"categoryName":..}`); a
 * bare id is taken too. It parses to `{ _id }`, which a client sends back as that JSON string.
 */
const CategoryJson = z.pipe(
  z.pipe(
    z.union([z.string(), z.object({ _id: z.unknown() })], { error: CATEGORY_REQUIRED }),
    z.transform((value, ctx): unknown => {
      if (typeof value !== 'string') return value
      const text = value.trim()
      if (!text.startsWith('{')) return { _id: text }
      try {
        return JSON.parse(text)
      } catch {
        ctx.issues.push({ code: 'custom', message: CATEGORY_REQUIRED, input: value })
        return z.NEVER
      }
    }),
  ),
  z.pipe(
    z.object(
      { _id: z.string({ error: CATEGORY_REQUIRED }).check(z.trim(), z.minLength(1, CATEGORY_REQUIRED), z.maxLength(64, CATEGORY_REQUIRED)) },
      { error: CATEGORY_REQUIRED },
    ),
    z.transform((c) => ({ _id: c._id })),
  ),
)

/** Ours: the stored files an edit keeps, as the URLs the record gave (a repeated field or a JSON array). */
const KeptFiles = z.optional(formList(z.string().check(z.trim(), z.minLength(1, 'Incorrect format'), z.maxLength(200, 'Incorrect format')), 'Incorrect format'))

/** Requirements R5.7, Add game. The flag is the text 'true' or 'false' (multipart). */
export const AddGameInput = z.object({
  liveLink: requiredUrl('liveLink is required', 'Invalid format'),
  title: required('Title is required', 200),
  categoryName: required(CATEGORY_REQUIRED, 64),
  operatingsystem: requiredOs('OperatingSystem is required'),
  description: required('description is required', 5000),
  isGameBackend: formFlag(),
})

/** Requirements R5.7, Edit game: its own OS and liveLink messages, and preference. */
export const EditGameInput = z.object({
  _id: Id,
  preference: count('preference is required'),
  liveLink: requiredUrl('liveLink is required'),
  title: required('Title is required', 200),
  categoryName: CategoryJson,
  operatingsystem: requiredOs('Operating System is required'),
  description: required('description is required', 5000),
  isGameBackend: formFlag(),
  /**
   * Ours: the stored images to keep, in order (absent: all of them). New images are added after
   * them; kept and new together are at most 5 and at least 1.
   */
  keptImages: KeptFiles,
  /** Ours: the stored video to keep ([] removes it; absent keeps it). A new video replaces it. */
  keptVideo: KeptFiles,
  /** Ours: the version the form loaded (common.ts, RECORD_CHANGED). */
  version: ExpectedVersion,
})

export const addcms = endpoint({
  logAs: 'Game added',
  method: 'POST',
  input: AddGameInput,
  files: { image: gameImages(true), video: gameVideo },
  output: Done,
  access: writes('/cms'),
})

/** `category` is a category id, '' for all; `operatingsystem` '' for all. */
const gameSort = sortable(['title', 'categoryName'])

export const listCms = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, {
    category: optionalText(64),
    operatingsystem: z._default(z.union([OperatingSystem, z.literal('')], { error: 'Incorrect format' }), ''),
    ...gameSort.input,
  }),
  output: pageOf(Game),
  access: reads('/cms'),
  sort: gameSort,
  ours: `Each game also carries thumbnails, the small previews lists show. ${gameSort.note}`,
})

export const DeleteCms = endpoint({
  logAs: 'Game deleted',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Deleted,
  access: writes('/cms'),
})

/**
 * The edit save. Images are optional here: the game keeps the stored images `keptImages` names
 * (all when absent) followed by the ones sent. A video, when sent, replaces the stored one.
 */
export const Editcms = endpoint({
  logAs: 'Game edited',
  method: 'POST',
  input: EditGameInput,
  files: { image: gameImages(false), video: gameVideo },
  output: Done,
  access: writes('/cms'),
  ours: 'keptImages and keptVideo name the stored files the edit keeps (absent: all); images optional when some are kept.',
})

/** Flips the game's freeze flag (the button reads Freeze or UnFreeze) and answers the new state. */
export const FreezeCms = endpoint({
  logAs: 'Game freeze switched',
  method: 'POST',
  input: z.object({ id: Id }),
  output: undoable({ freeze: z.boolean() }),
  access: writes('/cms'),
  ours: 'The answer carries the new state (freeze) and an undo ticket (contract/undo.ts), beside status and message.',
})

/** One game by id, for Edit Games opened by URL (a reload, a shared link). */
export const getCms = endpoint({
  method: 'GET',
  input: z.object({ _id: Id }),
  output: ok({ data: Game }),
  access: reads('/cms'),
  ours: 'Not in the requirements: the get-one read of Edit Games (the requirements pass the record in navigation state, R2.14).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
