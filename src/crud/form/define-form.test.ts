import { describe, expect, it } from 'vitest'
import { addcategory } from '#contract/catalog'
import { defineForm } from './define-form.tsx'
import { imageUpload, text } from './form-fields.ts'
import { editHref } from '../record/record.ts'

describe('defineForm', () => {
  it('refuses a file field the endpoint does not declare', () => {
    expect(() =>
      defineForm({ title: 'Add Category', endpoint: addcategory, fields: [text('categoryName', 'Category Name'), imageUpload('picture', 'Picture')], done: '/category' }),
    ).toThrow('addcategory has no file field "picture"')
  })
})

describe('editHref', () => {
  it('puts the record id in the query, encoded', () => {
    expect(editHref('/edit-category', 'a b/c')).toBe('/edit-category?id=a%20b%2Fc')
  })
})
