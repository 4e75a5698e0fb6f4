/**
 * The accounts and records the e2e server (server.ts) creates at start, shared with the specs.
 * Every password satisfies the login rule (6-18 chars, digit, upper, lower, special).
 */
export const PASSWORD = 'E2e@Pass1'

export interface Account {
  email: string
  password: string
  name: string
  role: 'superadmin' | 'subadmin'
  accessLevel: 'Admin' | 'View Only'
  restrictions: string[]
  /** Base32 TOTP secret when 2FA is enabled for the account. */
  totpSecret?: string
}

export const accounts = {
  /** The first superadmin, created by the server from ADMIN_EMAIL / ADMIN_PASSWORD. */
  superadmin: { email: 'root@e2e.test', password: PASSWORD, name: 'Super Admin', role: 'superadmin', accessLevel: 'Admin', restrictions: [] },
  /** View Only staff who may open the Leads, Contact Us and Category screens. */
  viewOnly: {
    email: 'viewer@e2e.test',
    password: PASSWORD,
    name: 'Vera Viewer',
    role: 'subadmin',
    accessLevel: 'View Only',
    restrictions: ['/users', '/contactus', '/category', '/profile', '/resetpassword'],
  },
  /** Admin-level staff restricted to the category screens. */
  categoriesOnly: {
    email: 'catalog@e2e.test',
    password: PASSWORD,
    name: 'Cato Catalog',
    role: 'subadmin',
    accessLevel: 'Admin',
    restrictions: ['/category', '/add-category', '/edit-category'],
  },
  /** Admin-level staff with TOTP enabled: login answers TWO_FA until a code comes. */
  twoFactor: {
    email: 'twofa@e2e.test',
    password: PASSWORD,
    name: 'Tomas Twofa',
    role: 'subadmin',
    accessLevel: 'Admin',
    restrictions: [],
    totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  },
} as const satisfies Record<string, Account>

/** Leads seeded newest first: lead001 is the newest. 120 makes three pages of 50. */
export const SEEDED_LEADS = 120
export const leadEmail = (n: number): string => `lead${String(n).padStart(3, '0')}@e2e.test`
export const leadName = (n: number): string => `Lead ${String(n).padStart(3, '0')}`

/** Leads seeded as newsletter subscribers: lead001 to lead006 (the newest). */
export const SUBSCRIBED_LEADS = 6

/** Contact enquiries seeded for the Contact Us screen. */
export const SEEDED_ENQUIRIES = 3
/** The lead whose address the first enquiry came from (the others come from no lead). */
export const ENQUIRING_LEAD = 100
export const SUPPORT_EMAIL = 'support@e2e.test'

/** A brand seeded with the oldest five leads as the ones who came through its referral link (View Brand's emails). */
export const SEEDED_BRAND = { brandname: 'Seeded Referral Brand', type: 'ipfs', leads: [116, 117, 118, 119, 120] } as const
export const APP_STORE_URL = 'https://play.google.com/store/apps/details?id=com.example.wallet'
