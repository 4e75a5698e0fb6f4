import { describe, expect, it } from 'vitest'
import { categoryImage } from '#contract/catalog'
import { acceptFor, checkFiles } from './file-check.ts'

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name)

describe('checkFiles with the category image rule', () => {
  it('asks for an image when none is chosen on add', () => {
    expect(checkFiles([], categoryImage(true))).toBe('image is required')
  })

  it('accepts no image on edit, where the current one is kept', () => {
    expect(checkFiles([], categoryImage(false))).toBeNull()
  })

  it('accepts .png, .jpg and .jpeg in any case', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg']) expect(checkFiles([file(name)], categoryImage(true))).toBeNull()
  })

  it('refuses other extensions with the required message', () => {
    expect(checkFiles([file('a.gif')], categoryImage(true))).toBe(
      'Please upload an image with .png, .jpeg,.jpg extension.',
    )
    expect(checkFiles([file('png')], categoryImage(true))).toBe(
      'Please upload an image with .png, .jpeg,.jpg extension.',
    )
  })

  it('refuses a second image', () => {
    expect(checkFiles([file('a.png'), file('b.png')], categoryImage(true))).toBe(
      'Please upload an image with .png, .jpeg,.jpg extension.',
    )
  })

  it('refuses a file over the size limit and names the limit', () => {
    const rule = { ...categoryImage(true), maxBytes: 1024 * 1024 }
    expect(checkFiles([file('a.png', 1024 * 1024 + 1)], rule)).toBe('Please upload a file of at most 1 MB.')
  })
})

describe('acceptFor', () => {
  it('lists every extension of the rule', () => {
    expect(acceptFor(categoryImage(true))).toBe('.png,.jpeg,.jpg')
  })
})
