import { Category, addcategory, editCategoryData, getCategory } from '#contract/catalog'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { imageUpload, number, text } from '#src/crud/form/form-fields.ts'

/** Add Category (/add-category): categoryName and one image; back to /category on success. */
export const AddCategoryPage = defineForm({
  title: 'Add Category',
  endpoint: addcategory,
  fields: [text('categoryName', 'Category Name'), imageUpload('image', 'Image')],
  done: '/category',
})

/** Edit Category (/edit-category): also the preference; the current image stays unless replaced. */
export const EditCategoryPage = defineForm({
  title: 'Edit Category',
  endpoint: editCategoryData,
  fields: [text('categoryName', 'Category Name'), number('preference', 'Preference'), imageUpload('image', 'Image')],
  done: '/category',
  record: {
    get: getCategory,
    input: (id) => ({ id }),
    pick: (answer) => answer.data,
    schema: Category,
    values: (c) => ({ id: c._id, categoryName: c.categoryName, preference: c.preference, version: c.version }),
    files: (c) => ({ image: c.image }),
  },
})
