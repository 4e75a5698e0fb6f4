import { HomepageContent, addHomePageCms, editHomePageCms, getHomePageCms } from '#contract/homepage'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { imageUpload, text, url } from '#src/crud/form/form-fields.ts'

/**
 * Add Homepage Content (/add-homepage-content): Title, Link and an image with its preview; the
 * add form's messages ('Title is required', the promotion-style image message). Back to the list.
 */
export const AddHomepageContentPage = defineForm({
  title: 'Add Homepage Content',
  endpoint: addHomePageCms,
  fields: [text('title', 'Title'), url('link', 'Link'), imageUpload('image', 'Image')],
  done: '/homepage-content',
})

/**
 * Edit Homepage Content (/edit-homepage-content): prefilled from the list's row or, after a
 * reload, from getHomePageCms; the edit form's own messages ('title is required', the
 * category-style image message). The current image stays unless replaced.
 */
export const EditHomepageContentPage = defineForm({
  title: 'Edit Homepage Content',
  endpoint: editHomePageCms,
  fields: [text('title', 'Title'), url('link', 'Link'), imageUpload('image', 'Image')],
  done: '/homepage-content',
  record: {
    get: getHomePageCms,
    input: (id) => ({ _id: id }),
    pick: (answer) => answer.data,
    schema: HomepageContent,
    values: (c) => ({ _id: c._id, title: c.title, link: c.link, version: c.version }),
    files: (c) => ({ image: c.image }),
  },
})
