/**
 * The screens of requirements R2, as data shared by the PWA (router, menu, palette, guard, Access
 * options) and the server (restrictions must name known routes; endpoint permissions name them).
 * The PWA adds only the lazy component for each path.
 */
export interface Screen {
  /** Path under /admin. */
  path: string
  /** The title the menu, the palette and the Access options show. */
  title: string
  /**
   * The page's own heading where the requirements name the screen differently from its menu entry
   * (menu "Brand Tab", page "Brand List"): both stay, the page shows the menu's name as its
   * breadcrumb and the palette finds the screen by either.
   */
  heading?: string
  /** Side-menu placement: top level, inside the CMS group, or not in the menu. */
  menu?: 'top' | 'cms'
  /**
   * A top-level page listed beneath another top-level entry (the path of that entry's page), as
   * part of its group: beneath it when the session may open both, at the top level otherwise.
   */
  beneath?: string
  /** The parent page whose access also grants this one (requirements R6.6). */
  parent?: string
  /** Offered as an Access option on Create User (all menu pages but the dashboard). */
  access?: 'create' | 'edit-only'
}

export const screens = [
  // Ours (requirements R1.3, a dashboard of cards): first in the menu, open to every signed-in
  // admin and so no Access option (requirements R5.13: every menu page but the dashboard).
  { path: '/dashboard', title: 'Dashboard', menu: 'top' },
  { path: '/users', title: 'Leads', menu: 'top', access: 'create' },
  { path: '/lead', title: 'Lead', parent: '/users' },
  // Not in the menu of requirements R2.6, which leaves the enquiries without an entry: beside Leads.
  { path: '/contactus', title: 'Contact Us', menu: 'top', access: 'create' },
  // Ours: the open enquiries one at a time, oldest first; whoever may open Contact Us may open it.
  { path: '/contactus-triage', title: 'Contact Us Triage', parent: '/contactus' },
  { path: '/category', title: 'Category List', menu: 'cms', access: 'create' },
  { path: '/add-category', title: 'Add Category', parent: '/category' },
  { path: '/edit-category', title: 'Edit Category', parent: '/category' },
  { path: '/cms', title: 'Games', menu: 'cms', access: 'create' },
  { path: '/add-cms', title: 'Add Games', parent: '/cms' },
  { path: '/edit-cms', title: 'Edit Games', parent: '/cms' },
  // Not a menu page, so no Access option of its own: a child of Games in the access rules (contract/ticket-product.ts).
  { path: '/edit-token', title: 'Edit Token', parent: '/cms' },
  { path: '/social-links', title: 'Social links', heading: 'Social Links', menu: 'cms', access: 'create' },
  { path: '/buy_list', title: 'Buy List', menu: 'cms', access: 'create' },
  { path: '/add_buylink', title: 'Add Buy Link', parent: '/buy_list' },
  { path: '/swapout_list', title: 'Swap out', heading: 'Swap Out List', menu: 'cms', access: 'create' },
  { path: '/add_swapout', title: 'Add Swap Out Link', parent: '/swapout_list' },
  { path: '/swapin_list', title: 'Swap in', heading: 'Swap in List', menu: 'cms', access: 'create' },
  { path: '/add_swapin', title: 'Add Swap In Link', parent: '/swapin_list' },
  { path: '/homepage-content', title: 'Home Page Content', heading: 'Homepage Content List', menu: 'cms', access: 'create' },
  { path: '/add-homepage-content', title: 'Add Homepage Content', parent: '/homepage-content' },
  { path: '/edit-homepage-content', title: 'Edit Homepage Content', parent: '/homepage-content' },
  { path: '/notificationlist', title: 'Messaging', menu: 'top', access: 'create' },
  { path: '/addnotification', title: 'Add Promotion', parent: '/notificationlist' },
  // Not in the menu of requirements R2.6 either: beside Messaging, the other mass send.
  { path: '/newsletter', title: 'Newsletter', menu: 'top', access: 'create' },
  // Ours: the addresses no mass send reaches (bounces, complaints, manual entries), beside the two sends.
  { path: '/suppressed-addresses', title: 'Suppressed addresses', menu: 'top', beneath: '/notificationlist', access: 'create' },
  { path: '/add-suppressed-address', title: 'Add Suppressed Address', parent: '/suppressed-addresses' },
  { path: '/emailtemplates', title: 'Automated Emails', menu: 'top', access: 'create' },
  { path: '/brand', title: 'Brand Tab', heading: 'Brand List', menu: 'top', access: 'create' },
  { path: '/addbrand', title: 'Add Brand', parent: '/brand' },
  { path: '/edit-brand', title: 'Edit Brand', parent: '/brand' },
  { path: '/view-brand', title: 'View Brand', parent: '/brand' },
  { path: '/version', title: 'Version', menu: 'top', access: 'create' },
  { path: '/sub-admin', title: 'Users and Access', menu: 'top', access: 'create' },
  { path: '/add-subAdmin', title: 'Create User', parent: '/sub-admin' },
  { path: '/edit-subAdmin', title: 'Edit User', parent: '/sub-admin' },
  // Ours: the staff audit log, granted like any page.
  { path: '/audit', title: 'Audit Log', menu: 'top', access: 'create' },
  // Screens the menu of requirements R2.6 leaves out, in the menu after its own entries so every screen is reachable.
  { path: '/restriction', title: 'Restriction List', menu: 'top', access: 'create' },
  { path: '/add-restriction', title: 'Add Restriction', parent: '/restriction' },
  { path: '/settings', title: 'Settings', menu: 'top', access: 'create' },
  // Ours: the link changes waiting for a second admin (link-changes.ts). Open to every signed-in
  // admin like the dashboard: its call lists only the changes of the writes the reader may make.
  { path: '/link-changes', title: 'Link changes', heading: 'Pending link changes', menu: 'top' },
  { path: '/profile', title: 'Profile' },
  { path: '/resetpassword', title: 'Reset Password', access: 'edit-only' },
] as const satisfies readonly Screen[]

export type ScreenPath = (typeof screens)[number]['path']

/**
 * The side menu's order, declared once by the order of `screens` above: the top-level entries'
 * titles, with 'CMS' where the group's first screen stands, leaving out an entry listed beneath
 * another (it shows inside that entry). The menu (src/app/side-menu.tsx) and its tests read it
 * from here; none repeats it.
 */
export const menuOrder: readonly string[] = ((): string[] => {
  const order: string[] = []
  for (const s of screens as readonly Screen[]) {
    if (s.menu === 'cms' && !order.includes('CMS')) order.push('CMS')
    else if (s.menu === 'top' && s.beneath === undefined) order.push(s.title)
  }
  return order
})()

/** The CMS group's entries, in their order. */
export const cmsMenuOrder: readonly string[] = (screens as readonly Screen[]).filter((s) => s.menu === 'cms').map((s) => s.title)

/** The side menu of requirements R2.6, whose entries keep this order among any others. */
export const requiredMenuOrder = ['Leads', 'CMS', 'Messaging', 'Automated Emails', 'Brand Tab', 'Version', 'Users and Access'] as const

/** Every private route path of requirements R2.2. */
export const screenPaths: readonly string[] = screens.map((s) => s.path)

/** Routes every signed-in admin keeps, whatever their restrictions (requirements R5.13: edit always adds them). */
export const alwaysAllowed = ['/profile', '/resetpassword'] as const

/**
 * Screens every signed-in admin may open whatever their restrictions, never stored in a
 * restriction list: the dashboard, whose call answers only the cards the admin's access covers.
 */
export const openToEveryone = ['/dashboard', '/link-changes'] as const

/** The child pages a parent page grants (requirements R6.6). */
export function childrenOf(parent: string): string[] {
  return screens.filter((s): boolean => 'parent' in s && s.parent === parent).map((s) => s.path)
}

/** Whether a session with these restrictions may open this route (requirements R2.4). */
export function mayOpen(restrictions: readonly string[], path: string): boolean {
  if (restrictions.length === 0) return true
  if (restrictions.includes(path)) return true
  return (alwaysAllowed as readonly string[]).includes(path) || (openToEveryone as readonly string[]).includes(path)
}
