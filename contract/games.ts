import { z } from 'zod'
import { Done, Id, PageQuery, count, pageOf, required, requiredUrl } from './common.ts'
import { endpoint, reads, writes, type FileRule } from './define.ts'
import { MB, formFlag, imageFiles } from './multipart.ts'

/** Spec section 9: Android, ios, both. */
export const operatingSystems = ['Android', 'ios', 'both'] as const
export const OperatingSystem = z.enum(operatingSystems)
export type OperatingSystem = z.output<typeof OperatingSystem>

/**
 * Spec section 3, Game. The spec's name for the game-backend flag carries a third-party
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
  video: z.string(),
  preference: z.number().int(),
  isGameBackend: z.boolean(),
  freeze: z.boolean(),
})
export type Game = z.output<typeof Game>

/** Spec section 9: up to 5 images per game. */
export const MAX_GAME_IMAGES = 5

/** Spec section 5, game images: .png/.jpeg/.jpg, at most 5. */
export const gameImages = (isRequired: boolean): FileRule =>
  imageFiles({
    max: MAX_GAME_IMAGES,
    required: isRequired,
    requiredMessage: 'image is required',
    kind: 'Please upload file(s) with .png, .jpeg, .jpg extensions only.',
    tooMany: 'You can upload a maximum of 5 images.',
  })

/** Spec section 5, game video: one .mp4/.m4a/.webm file, optional. */
export const gameVideo: FileRule = {
  kinds: ['mp4', 'm4a', 'webm'],
  max: 1,
  required: false,
  maxBytes: 100 * MB,
  messages: { kind: 'Please upload file(s) with .mp4, .m4a, .webm extensions only.' },
}

const CATEGORY_REQUIRED = 'category Name is required'

/**
 * Edit sends categoryName as a JSON string of the category (`{"_id":..,"categoryName":..}`);
 * add sends the bare id. Both parse to the category id.
 */
const CategoryJson = z
  .string({ error: CATEGORY_REQUIRED })
  .trim()
  .min(1, CATEGORY_REQUIRED)
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text)
    } catch {
      ctx.addIssue({ code: 'custom', message: CATEGORY_REQUIRED })
      return z.NEVER
    }
  })
  .pipe(
    z
      .object({ _id: z.string({ error: CATEGORY_REQUIRED }).trim().min(1, CATEGORY_REQUIRED).max(64, CATEGORY_REQUIRED) }, { error: CATEGORY_REQUIRED })
      .transform((c) => c._id),
  )

/** Spec section 5, Add game. The flag is the text 'true' or 'false' (multipart). */
export const AddGameInput = z.object({
  liveLink: requiredUrl('liveLink is required', 'Invalid format'),
  title: required('Title is required', 200),
  categoryName: required(CATEGORY_REQUIRED, 64),
  operatingsystem: z.enum(operatingSystems, { error: 'OperatingSystem is required' }),
  description: required('description is required', 5000),
  isGameBackend: formFlag(),
})

/** Spec section 5, Edit game: its own OS and liveLink messages, and preference. */
export const EditGameInput = z.object({
  _id: Id,
  preference: count('preference is required'),
  liveLink: requiredUrl('liveLink is required'),
  title: required('Title is required', 200),
  categoryName: CategoryJson,
  operatingsystem: z.enum(operatingSystems, { error: 'Operating System is required' }),
  description: required('description is required', 5000),
  isGameBackend: formFlag(),
})

export const addcms = endpoint({
  name: 'addcms',
  method: 'POST',
  path: '/addcms',
  input: AddGameInput,
  files: { image: gameImages(true), video: gameVideo },
  output: Done,
  access: writes('/cms'),
})

/** `category` is a category id, '' for all; `operatingsystem` '' for all. */
export const listCms = endpoint({
  name: 'listCms',
  method: 'GET',
  path: '/listCms',
  input: PageQuery.extend({
    category: z.string().trim().max(64, 'Incorrect format').default(''),
    operatingsystem: z.union([OperatingSystem, z.literal('')], { error: 'Incorrect format' }).default(''),
  }),
  output: pageOf(Game),
  access: reads('/cms'),
})

export const DeleteCms = endpoint({
  name: 'DeleteCms',
  method: 'POST',
  path: '/DeleteCms',
  input: z.object({ id: Id }),
  output: Done,
  access: writes('/cms'),
})

/**
 * The edit save. Images are optional here: when any are sent they replace the game's images,
 * otherwise the current ones are kept (the form itself still requires an image on screen).
 * Likewise a video, when sent, replaces the current one.
 */
export const Editcms = endpoint({
  name: 'Editcms',
  method: 'POST',
  path: '/Editcms',
  input: EditGameInput,
  files: { image: gameImages(false), video: gameVideo },
  output: Done,
  access: writes('/cms'),
})

/** Flips the game's freeze flag (the button reads Freeze or UnFreeze). */
export const FreezeCms = endpoint({
  name: 'FreezeCms',
  method: 'POST',
  path: '/FreezeCms',
  input: z.object({ id: Id }),
  output: Done,
  access: writes('/cms'),
})
