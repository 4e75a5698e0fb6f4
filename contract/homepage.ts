import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, ok, pageOf, required, requiredUrl, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import { IMAGE_KIND_MESSAGE, imageFiles } from './multipart.ts'
import { Deleted } from './undo.ts'
import * as self from './homepage.ts'

/** Requirements R3.14, Homepage content. `image` is the URL the server serves the upload at. */
/** `thumbnail` (ours) is the small preview the list shows; '' when the server has none. `version` (ours): common.ts, RECORD_CHANGED. */
export const HomepageContent = z.object({ _id: z.string(), title: z.string(), link: z.string(), image: z.string(), thumbnail: z.string(), version: RecordVersion })
export type HomepageContent = z.output<typeof HomepageContent>

/** Requirements R3.15, Homepage preference: whether the content shows on the landing page. */
export const HomepagePreference = z.object({ status: z.boolean() })
export type HomepagePreference = z.output<typeof HomepagePreference>

const Link = requiredUrl('link is required')

/** Requirements R5.12, add: 'Title is required' and the promotion-style image message. */
export const addHomePageCms = endpoint({
  logAs: 'Homepage content added',
  method: 'POST',
  input: z.object({ title: required('Title is required', 200), link: Link }),
  files: {
    image: imageFiles({ max: 1, required: true, requiredMessage: 'image is required', kind: IMAGE_KIND_MESSAGE, tooMany: IMAGE_KIND_MESSAGE }),
  },
  output: Done,
  access: writes('/homepage-content'),
})

const homepageSort = sortable(['title', 'link'])

export const listHomePageCms = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, homepageSort.input),
  output: pageOf(HomepageContent),
  access: reads('/homepage-content'),
  sort: homepageSort,
  ours: homepageSort.note,
})

/** One block by id, for Edit Homepage Content opened by URL (a reload, a shared link). */
export const getHomePageCms = endpoint({
  method: 'GET',
  input: z.object({ _id: Id }),
  output: ok({ data: HomepageContent }),
  access: reads('/homepage-content'),
  ours: 'Not in the requirements: the get-one read of Edit Homepage Content (the requirements pass the record in navigation state, R2.31).',
})

/**
 * Requirements R5.12, edit: 'title is required' (lower case) and the category-style image message.
 * Without a new image the current one is kept.
 */
export const editHomePageCms = endpoint({
  logAs: 'Homepage content edited',
  method: 'POST',
  input: z.object({ _id: Id, title: required('title is required', 200), link: Link, version: ExpectedVersion }),
  files: {
    image: imageFiles({
      max: 1,
      required: false,
      requiredMessage: 'image is required',
      kind: 'Please upload an image with .png, .jpeg,.jpg extension.',
      tooMany: 'Please upload an image with .png, .jpeg,.jpg extension.',
    }),
  },
  output: Done,
  access: writes('/homepage-content'),
})

export const deleteHomePageCms = endpoint({
  logAs: 'Homepage content deleted',
  method: 'POST',
  input: z.object({ _id: Id }),
  output: Deleted,
  access: writes('/homepage-content'),
})

/** The landing-page switch: Show this CMS content on landing page. */
export const updateHomepageCmsPreference = endpoint({
  logAs: 'Landing page visibility changed',
  method: 'POST',
  input: z.object({ status: z.boolean({ error: 'Incorrect format' }) }),
  output: Done,
  access: writes('/homepage-content'),
})

export const getHomepageCmsPreference = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: HomepagePreference }),
  access: reads('/homepage-content'),
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
