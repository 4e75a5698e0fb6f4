import { describe, expect, it } from 'vitest'
import { childrenOf, screens } from '#contract/routes'

describe('home page content and edit token screens', () => {
  // defineForm and defineRecordForm check a definition when the module loads: a file field the endpoint lacks throws.
  it('defines the add and edit forms against their endpoints', async () => {
    const forms = await import('./homepage-form.tsx')
    expect(typeof forms.AddHomepageContentPage).toBe('function')
    expect(typeof forms.EditHomepageContentPage).toBe('function')
    const list = await import('./homepage-list.tsx')
    expect(typeof list.HomepageContentPage).toBe('function')
  })

  it('makes Edit Token a child of Games, never an Access option of its own', () => {
    expect(childrenOf('/cms')).toContain('/edit-token')
    const token = screens.find((s) => s.path === '/edit-token')
    expect(token !== undefined && 'access' in token).toBe(false)
    expect(token !== undefined && 'menu' in token).toBe(false)
  })
})
