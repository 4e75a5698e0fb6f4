import { describe, expect, it } from 'vitest'
import type { z } from 'zod/mini'
import { addcategory, categoryImage } from '#contract/catalog'
import { gameImages, gameVideo } from '#contract/games'
import { checkFileFields } from './define-form.tsx'
import { fieldSchemas, fieldType, initialValues, isFilePart, splitValues } from './field-registry.ts'
import {
  email,
  imageUpload,
  imagesUpload,
  multiSelect,
  number,
  password,
  remoteSelect,
  richText,
  searchMultiSelect,
  select,
  switchField,
  text,
  textarea,
  url,
  videoUpload,
} from './form-fields.ts'

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name)
const noOptions = { useOptions: () => ({ status: 'loading' as const }) }

/** The first message of a schema's answer for `value`, or null when it passes. */
function problem(schema: z.ZodMiniType | undefined, value: unknown): string | null {
  if (!schema) throw new Error('no schema')
  const result = schema.safeParse(value)
  return result.success ? null : (result.error.issues[0]?.message ?? null)
}

describe('the field registry: blank values', () => {
  it('starts text-like fields empty, switches off, lists and files empty', () => {
    const fields = [
      text('a', 'A'),
      email('b', 'B'),
      url('c', 'C'),
      number('d', 'D'),
      password('e', 'E'),
      textarea('f', 'F'),
      select('g', 'G', []),
      remoteSelect('h', 'H', noOptions),
      switchField('i', 'I'),
      multiSelect('j', 'J', []),
      searchMultiSelect('k', 'K', []),
      richText('l', 'L'),
      imageUpload('m', 'M'),
      imagesUpload('n', 'N'),
      videoUpload('o', 'O'),
    ]
    expect(initialValues(fields)).toEqual({ a: '', b: '', c: '', d: '', e: '', f: '', g: '', h: '', i: false, j: [], k: [], l: '', m: [], n: [], o: [] })
  })

  it('sends files as files and everything else in the payload', () => {
    expect(fieldType('image').part).toBe('file')
    expect(fieldType('video').part).toBe('file')
    expect(isFilePart(imagesUpload('image', 'Images'))).toBe(true)
    expect(isFilePart(richText('content', 'Content'))).toBe(false)
    expect(isFilePart(searchMultiSelect('country', 'Country', noOptions))).toBe(false)
  })

  it('leaves value fields to the endpoint schema: only file kinds add a schema', () => {
    const fields = [text('title', 'Title'), switchField('on', 'On'), imageUpload('image', 'Image')]
    expect(Object.keys(fieldSchemas(fields, { image: categoryImage(true) }))).toEqual(['image'])
  })
})

describe('the field registry: file schemas with the required messages', () => {
  it('one image: required on add, the kind message for another kind, a saved image kept on edit', () => {
    const add = fieldSchemas([imageUpload('image', 'Image')], { image: categoryImage(true) })['image']
    expect(problem(add, [])).toBe('image is required')
    expect(problem(add, [file('a.gif')])).toBe('Please upload an image with .png, .jpeg,.jpg extension.')
    expect(problem(add, [file('a.PNG')])).toBeNull()
    const edit = fieldSchemas([imageUpload('image', 'Image')], { image: categoryImage(false) })['image']
    expect(problem(edit, [])).toBeNull()
    expect(problem(edit, ['/uploads/saved.png'])).toBeNull()
  })

  it('several images: saved and new together count toward the maximum of 5', () => {
    const schema = fieldSchemas([imagesUpload('image', 'Images', { required: true })], { image: gameImages(false) })['image']
    expect(problem(schema, [])).toBe('image is required')
    expect(problem(schema, ['/uploads/1.png', '/uploads/2.png', file('3.png')])).toBeNull()
    expect(problem(schema, ['/uploads/1.png', '/uploads/2.png', file('3.png'), file('4.png'), file('5.jpg'), file('6.jpeg')])).toBe('You can upload a maximum of 5 images.')
    expect(problem(schema, ['/uploads/1.png', file('2.bmp')])).toBe('Please upload file(s) with .png, .jpeg, .jpg extensions only.')
  })

  it('video: mp4, m4a and webm only, optional', () => {
    const schema = fieldSchemas([videoUpload('video', 'Video')], { video: gameVideo })['video']
    expect(problem(schema, [])).toBeNull()
    for (const name of ['a.mp4', 'b.m4a', 'c.webm']) expect(problem(schema, [file(name)])).toBeNull()
    expect(problem(schema, [file('a.mov')])).toBe('Please upload file(s) with .mp4, .m4a, .webm extensions only.')
  })

  it('refuses a file field the endpoint does not declare, when the form is defined', () => {
    expect(() => fieldSchemas([imageUpload('picture', 'Picture')], {})).toThrow('no file field "picture"')
    expect(() => checkFileFields('Add Category', addcategory, [imageUpload('picture', 'Picture')])).toThrow('Add Category: addcategory has no file field "picture"')
  })
})

describe('splitValues', () => {
  it('puts new files in the files, saved ones in the keep field, the rest in the payload', () => {
    const chosen = file('new.png')
    const fields = [text('title', 'Title'), imagesUpload('image', 'Images', { keep: 'keptImages' }), videoUpload('video', 'Video')]
    const { input, files } = splitValues(fields, { _id: 'g1', title: 'Racer', image: ['/uploads/old.png', chosen], video: [] })
    expect(input).toEqual({ _id: 'g1', title: 'Racer', keptImages: ['/uploads/old.png'] })
    expect(files).toEqual({ image: [chosen], video: [] })
  })
})
