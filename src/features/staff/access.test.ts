import { describe, expect, it } from 'vitest'
import { accessChanges, accessLabel, accessOptions, accessToSend, normalizeAccess, withAlwaysAllowed } from './access.ts'

describe('accessOptions', () => {
  it('offers the menu pages but no child page, and Reset Password only on edit', () => {
    const create = accessOptions('create').map((o) => o.value)
    expect(create).toContain('/category')
    expect(create).toContain('/sub-admin')
    expect(create).not.toContain('/add-category')
    expect(create).not.toContain('/profile')
    expect(create).not.toContain('/resetpassword')
    expect(accessOptions('edit').map((o) => o.value)).toEqual([...create, '/resetpassword'])
    expect(accessOptions('create').find((o) => o.value === '/sub-admin')?.label).toBe('Users and Access')
  })
})

describe('normalizeAccess', () => {
  it('adds the child pages of each chosen parent for Admin', () => {
    expect(normalizeAccess(['/category', '/users'], 'Admin')).toEqual(['/category', '/add-category', '/edit-category', '/users', '/lead'])
  })

  it('removes every child page for View Only', () => {
    expect(normalizeAccess(['/category', '/add-category', '/edit-category', '/cms', '/add-cms'], 'View Only')).toEqual(['/category', '/cms'])
  })

  it('drops a child page whose parent is no longer chosen', () => {
    expect(normalizeAccess(['/add-category', '/edit-category', '/users'], 'Admin')).toEqual(['/users', '/lead'])
  })

  it('keeps paths that are not options, such as Profile', () => {
    expect(normalizeAccess(['/profile', '/brand'], 'Admin')).toEqual(['/profile', '/brand', '/addbrand', '/edit-brand', '/view-brand'])
  })

  it('leaves the parents alone while no user type is chosen', () => {
    expect(normalizeAccess(['/category'], '')).toEqual(['/category'])
  })
})

describe('withAlwaysAllowed', () => {
  it('adds Profile and Reset Password to a chosen list once', () => {
    expect(withAlwaysAllowed(['/users', '/profile'])).toEqual(['/users', '/profile', '/resetpassword'])
  })

  it('keeps an empty list empty, since empty means every page', () => {
    expect(withAlwaysAllowed([])).toEqual([])
  })
})

describe('accessToSend', () => {
  it('sends every page (an empty list) for Admin, whatever was chosen before', () => {
    expect(accessToSend('Admin', ['/category', '/add-category', '/edit-category'], 'create')).toEqual([])
    expect(accessToSend('Admin', ['/brand', '/profile', '/resetpassword'], 'edit')).toEqual([])
  })

  it('sends the chosen pages without child pages for View Only', () => {
    expect(accessToSend('View Only', ['/category', '/add-category', '/users'], 'create')).toEqual(['/category', '/users'])
  })

  it('adds Profile and Reset Password to a chosen list on edit only', () => {
    expect(accessToSend('View Only', ['/brand', '/addbrand'], 'edit')).toEqual(['/brand', '/profile', '/resetpassword'])
    expect(accessToSend('View Only', ['/brand'], 'create')).toEqual(['/brand'])
  })
})

describe('accessLabel', () => {
  it('shows -- for an empty list, which means every page', () => {
    expect(accessLabel([])).toBe('--')
  })

  it('names the pages of a restricted user by their titles, child pages included, never --', () => {
    expect(accessLabel(['/users', '/category', '/profile', '/resetpassword'])).toBe('Leads, Category List, Profile, Reset Password')
    expect(accessLabel(['/category', '/add-category', '/edit-category'])).toBe('Category List, Add Category, Edit Category')
  })

  it('shows a path it has no title for as it is', () => {
    expect(accessLabel(['/retired-page'])).toBe('/retired-page')
  })
})

describe('accessChanges', () => {
  const words = (list: readonly { page: string; before: string; after: string }[]) => list.map((c) => `${c.page}: ${c.before} -> ${c.after}`)

  it('says nothing when the save changes no page', () => {
    expect(accessChanges({ accessLevel: 'View Only', restrictions: ['/users'] }, { accessLevel: 'View Only', restrictions: ['/users', '/profile'] })).toEqual({ gains: [], losses: [] })
  })

  it('names each page gained and lost, with what was and what will be', () => {
    const changes = accessChanges({ accessLevel: 'View Only', restrictions: ['/users', '/contactus'] }, { accessLevel: 'View Only', restrictions: ['/users', '/cms'] })
    expect(words(changes.gains)).toEqual(['Games: none -> read'])
    expect(words(changes.losses)).toEqual(['Contact Us: read -> none'])
  })

  it('makes every page writable for an Admin (every page) and takes writing away when they become View Only', () => {
    const up = accessChanges({ accessLevel: 'View Only', restrictions: ['/users'] }, { accessLevel: 'Admin', restrictions: [] })
    expect(words(up.gains)).toContain('Leads: read -> write')
    expect(words(up.gains)).toContain('Games: none -> write')
    expect(up.losses).toEqual([])
    const down = accessChanges({ accessLevel: 'Admin', restrictions: [] }, { accessLevel: 'View Only', restrictions: ['/users'] })
    expect(words(down.losses)).toContain('Leads: write -> read')
    expect(words(down.losses)).toContain('Games: write -> none')
    expect(down.gains).toEqual([])
  })

  it('from no account (Create User), lists all a new member gets: View Only with no page chosen reads every page', () => {
    const none = { accessLevel: null, restrictions: [] }
    const everyPage = accessChanges(none, { accessLevel: 'View Only', restrictions: accessToSend('View Only', [], 'create') })
    expect(everyPage.gains.length).toBe(accessOptions('create').length)
    expect(everyPage.gains.every((c) => c.before === 'none' && c.after === 'read')).toBe(true)
    const two = accessChanges(none, { accessLevel: 'View Only', restrictions: accessToSend('View Only', ['/users', '/cms'], 'create') })
    expect(words(two.gains)).toEqual(['Leads: none -> read', 'Games: none -> read'])
    expect(accessChanges(none, none)).toEqual({ gains: [], losses: [] })
  })
})

describe('accessChanges and the pages every member has', () => {
  it('does not count Reset Password, which the edit form adds and every member may open', () => {
    expect(accessChanges({ accessLevel: 'View Only', restrictions: ['/users'] }, { accessLevel: 'View Only', restrictions: ['/users', '/resetpassword', '/profile'] })).toEqual({ gains: [], losses: [] })
  })
})
