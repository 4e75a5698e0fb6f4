import { describe, expect, it } from 'vitest'
import { childrenOf, screens } from '#contract/routes'

describe('home page content and edit token screens', () => {
  // defineForm and defineRecordForm check a definition when the module loads: a file field the endpoint lacks throws.
  it('defines the add and edit forms against their endpoints', async () => {
    const forms = await import('./homepage-form.tsx')
    expect(forms.AddHomepageContentPage.displayName).toBe('Form(Add Homepage Content)')
    expect(forms.EditHomepageContentPage.displayName).toBe('Form(Edit Homepage Content)')
    const list = await import('./homepage-list.tsx')
    expect(list.HomepageContentPage.displayName).toBe('List(Homepage Content List)')
  })

  it('makes Edit Token a child of Games, never an Access option of its own', () => {
    expect(childrenOf('/cms')).toContain('/edit-token')
    const token = screens.find((s) => s.path === '/edit-token')
    expect(token !== undefined && 'access' in token).toBe(false)
    expect(token !== undefined && 'menu' in token).toBe(false)
  })
})
