import { describe, expect, it } from 'vitest'

describe('category forms', () => {
  // defineForm checks a definition when the module loads: a file field the endpoint lacks throws.
  // The kit names each screen after the title it shows, which the spec gives word for word.
  it('accepts the category forms and titles them as the spec does', async () => {
    const screens = await import('./category-form.tsx')
    expect(screens.AddCategoryPage.displayName).toBe('Form(Add Category)')
    expect(screens.EditCategoryPage.displayName).toBe('Form(Edit Category)')
  })
})
