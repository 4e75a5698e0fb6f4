import { describe, expect, it } from 'vitest'
import { crumbsFor } from './breadcrumb.tsx'
import { routeFor } from './route-table.ts'

const crumbs = (path: string) => crumbsFor(routeFor(path))

describe('the breadcrumb', () => {
  it("shows the menu's name on a page whose heading is another (both as the requirements write them)", () => {
    expect(crumbs('/brand')).toEqual([{ label: 'Brand Tab', current: true }])
    expect(crumbs('/homepage-content')).toEqual([{ label: 'CMS' }, { label: 'Home Page Content', current: true }])
  })

  it('names the list an Add or Edit page belongs to, as a link back', () => {
    expect(crumbs('/addbrand')).toEqual([{ label: 'Brand Tab', href: '/brand' }])
    expect(crumbs('/add-homepage-content')).toEqual([{ label: 'CMS' }, { label: 'Home Page Content', href: '/homepage-content' }])
    expect(crumbs('/edit-token')).toEqual([{ label: 'CMS' }, { label: 'Games', href: '/cms' }])
  })

  it('names the entry a page is listed beneath, as a link back, on the page and its Add page', () => {
    expect(crumbs('/suppressed-addresses')).toEqual([{ label: 'Messaging', href: '/notificationlist' }, { label: 'Suppressed addresses', current: true }])
    expect(crumbs('/add-suppressed-address')).toEqual([{ label: 'Messaging', href: '/notificationlist' }, { label: 'Suppressed addresses', href: '/suppressed-addresses' }])
  })

  it('is absent where the heading is the menu name already', () => {
    expect(crumbs('/users')).toEqual([])
    expect(crumbs('/category')).toEqual([])
    expect(crumbs('/no-such-screen')).toEqual([])
  })
})
