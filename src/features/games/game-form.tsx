import { Game, addcms, Editcms, getCms } from '#contract/games'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { imagesUpload, number, remoteSelect, select, switchField, text, textarea, url, videoUpload } from '#src/crud/form/form-fields.ts'
import { categoryOptions, operatingSystemOptions } from './game-options.ts'

const shared = [
  text('title', 'Title'),
  textarea('description', 'Description'),
  remoteSelect('categoryName', 'Category', categoryOptions),
  select('operatingsystem', 'Operating System', operatingSystemOptions),
  url('liveLink', 'Live Link'),
] as const

/** Add Games (/add-cms): requirements R3.9, R5.7, R5.8; back to /cms on success. */
export const AddGamePage = defineForm({
  title: 'Add Games',
  endpoint: addcms,
  fields: [...shared, imagesUpload('image', 'Images'), videoUpload('video', 'Video'), switchField('isGameBackend', 'Game Backend')],
  initial: { isGameBackend: false },
  done: '/cms',
})

/**
 * Edit Games (/edit-cms): also the preference. The saved images and video are shown with
 * remove; those still shown are sent as kept, new ones are added after them.
 */
export const EditGamePage = defineForm({
  title: 'Edit Games',
  endpoint: Editcms,
  fields: [
    ...shared,
    number('preference', 'Preference'),
    imagesUpload('image', 'Images', { required: true, keep: 'keptImages' }),
    videoUpload('video', 'Video', { keep: 'keptVideo' }),
    switchField('isGameBackend', 'Game Backend'),
  ],
  done: '/cms',
  record: {
    get: getCms,
    input: (id) => ({ _id: id }),
    pick: (answer) => answer.data,
    schema: Game,
    values: (g) => ({
      _id: g._id,
      title: g.title,
      description: g.description,
      categoryName: g.categoryName._id,
      operatingsystem: g.operatingsystem,
      liveLink: g.liveLink,
      preference: g.preference,
      isGameBackend: g.isGameBackend,
      version: g.version,
    }),
    files: (g) => ({ image: g.image, video: g.video }),
  },
})
