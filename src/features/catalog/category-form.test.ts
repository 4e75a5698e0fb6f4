import { describe, expect, it } from 'vitest'

describe('category forms', () => {
  // defineForm checks a definition when the module loads: a file field the endpoint lacks throws.
  // The kit names each screen after the title it shows, which the requirements give word for word.
  it('accepts the category forms and titles them as the requirements do', async () => {
    const screens = await import('./category-form.tsx')
    expect(screens.AddCategoryPage.displayName).toBe('Form(Add Category)')
    expect(screens.EditCategoryPage.displayName).toBe('Form(Edit Category)')
  })
})
