import { describe, expect, it } from 'vitest'

describe('category forms', () => {
  // defineForm checks a definition when the module loads: a file field the endpoint lacks throws.
  it('accepts the category form as the spec describes it', async () => {
    const screens = await import('./category-form.tsx')
    expect(typeof screens.AddCategoryPage).toBe('function')
    expect(typeof screens.EditCategoryPage).toBe('function')
  })
})
