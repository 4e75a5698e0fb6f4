import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, count, integer, ok, pageOf, required, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes, type FileRule } from './define.ts'
import { Deleted } from './undo.ts'
import * as self from './catalog.ts'

/** Requirements R3.5, Category. `image` is the URL the server serves the upload at. */
export const Category = z.object({
  _id: z.string(),
  categoryName: z.string(),
  image: z.string(),
  /** Ours: the small preview the list shows instead of the original. */
  thumbnail: z.string(),
  preference: integer(),
  /** Ours: the edit version (common.ts, RECORD_CHANGED). */
  version: RecordVersion,
})
export type Category = z.output<typeof Category>

const MB = 1024 * 1024

/** Requirements R5.9, Category image: one .png/.jpeg/.jpg file. */
export const categoryImage = (isRequired: boolean): FileRule => ({
  kinds: ['png', 'jpeg'],
  max: 1,
  required: isRequired,
  maxBytes: 5 * MB,
  messages: {
    required: 'image is required',
    kind: 'Please upload an image with .png, .jpeg,.jpg extension.',
    tooMany: 'Please upload an image with .png, .jpeg,.jpg extension.',
  },
})

/** Shown when the file picker is closed without choosing a file (requirements R5.9). */
export const NO_FILE_SELECTED = 'No file selected.'

const CategoryName = required('categoryName is required', 100)

export const addcategory = endpoint({
  logAs: 'Category added',
  method: 'POST',
  input: z.object({ categoryName: CategoryName }),
  files: { image: categoryImage(true) },
  output: Done,
  access: writes('/category'),
  ours: 'Payload not given beyond the fields of requirements R3.5: multipart categoryName + image.',
})

const categorySort = sortable(['categoryName'])

export const listCategory = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, categorySort.input),
  output: pageOf(Category),
  access: reads('/category'),
  sort: categorySort,
  ours: categorySort.note,
})

/** The edit save. The image is optional here: without one the current image is kept. */
export const editCategoryData = endpoint({
  logAs: 'Category edited',
  method: 'POST',
  input: z.object({
    id: Id,
    categoryName: CategoryName,
    preference: count('preference is required'),
    version: ExpectedVersion,
  }),
  files: { image: categoryImage(false) },
  output: Done,
  access: writes('/category'),
  ours: 'Payload not given beyond the fields of requirements R3.5: multipart id, categoryName, preference, optional image; optional version (409 when the record changed since).',
})

/** One category by id, for an edit screen opened by URL (a reload, a shared link). */
export const getCategory = endpoint({
  method: 'GET',
  input: z.object({ id: Id }),
  output: ok({ data: Category }),
  access: reads('/category'),
  ours: 'Not in the requirements: the get-one read of Edit Category (the requirements pass the record in navigation state, R2.12; editCategoryData is our edit save).',
})

export const deleteCategory = endpoint({
  logAs: 'Category deleted',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Deleted,
  access: writes('/category'),
})

export const categoryDropdown = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.object({ data: z.array(z.pick(Category, { _id: true, categoryName: true })) }) }),
  // The games screens need the dropdown as well as the category screens.
  access: reads('/cms'),
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
