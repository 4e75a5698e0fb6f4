/**
 * The database, in drizzle's pg-core. One schema serves PGlite and PostgreSQL; migrations are
 * generated from it with `npx drizzle-kit generate` into ./migrations and applied at start.
 *
 * Ids are text holding a random UUID: opaque to the client (DESIGN.md), and a malformed id from a
 * request simply matches no row instead of raising a cast error.
 */
import { sql } from 'drizzle-orm'
import { boolean, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const id = () =>
  text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`)
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const admins = pgTable(
  'admins',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull(),
    /** Always stored lower-cased, so uniqueness and login ignore case. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['superadmin', 'subadmin'] }).notNull(),
    accessLevel: text('access_level', { enum: ['Admin', 'View Only'] }).notNull(),
    /** Route paths this admin may open; empty means every route (spec section 2). */
    restrictions: text('restrictions').array().notNull().default(sql`'{}'::text[]`),
    /** 1 means active (spec section 3); anything else cannot log in or use a token. */
    activate: integer('activate').notNull().default(1),
    /** Part of every token; bumping it revokes all tokens issued before. */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * The TOTP secret (pending until `totpEnabled`), sealed with AES-256-GCM by server/sign-in/two-factor-secret.ts.
     * Only that module reads or writes it; a value without its prefix is a legacy plain secret.
     */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last TOTP time step accepted, so a code cannot be used twice. */
    totpLastStep: integer('totp_last_step'),
    // The login lockout is not here but in login_failures, keyed by email: it must also count
    // emails no admin has, or locking would tell which emails exist.
  },
  (t) => [uniqueIndex('admins_email_key').on(t.email)],
)

/**
 * Failed sign-in attempts per lower-cased email, whether or not an admin has that email (see
 * server/sign-in/lockout.ts). A row without an active lock and untouched for a day is stale: its count
 * starts again and it is pruned.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    email: text('email').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_updated_at_idx').on(t.updatedAt)],
)

/**
 * Brands (contract/brands.ts). A brand's referral link carries its id, encrypted (server/kit or
 * src/lib referral code); `visits` counts the referral redirects that decoded to this brand.
 */
export const brands = pgTable(
  'brands',
  {
    id: id(),
    createdAt: createdAt(),
    brandname: text('brandname').notNull(),
    type: text('type', { enum: ['web3auth', 'ipfs'] }).notNull(),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [uniqueIndex('brands_name_key').on(sql`lower(${t.brandname})`), index('brands_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

export const leads = pgTable(
  'leads',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    operatingsystem: text('operatingsystem').notNull().default(''),
    walletaddress: text('walletaddress').notNull().default(''),
    provider: text('provider').notNull().default(''),
    /** The brand whose referral link brought this lead; cleared when the brand is deleted. */
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
  },
  (t) => [
    // View Brand lists a brand's emails, newest first.
    index('leads_brand_idx').on(t.brandId, t.createdAt.desc(), t.id.desc()),
    // Newest first, with id as the tie-break, for pages and the keyset-paged export.
    index('leads_created_at_id_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Substring search over name, email and wallet address stays fast on a million rows with a
    // trigram index; the query must use exactly this expression (see server/routes/leads.ts).
    index('leads_search_trgm_idx').using(
      'gin',
      sql`lower(${t.name} || ' ' || ${t.email} || ' ' || ${t.walletaddress}) gin_trgm_ops`,
    ),
  ],
)

export const contactEnquiries = pgTable(
  'contact_enquiries',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    phonenumber: text('phonenumber').notNull().default(''),
    message: text('message').notNull().default(''),
  },
  (t) => [index('contact_enquiries_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
)

export const categories = pgTable(
  'categories',
  {
    id: id(),
    createdAt: createdAt(),
    categoryName: text('category_name').notNull(),
    /** File name under DATA_DIR/uploads, chosen by the server. */
    image: text('image').notNull(),
    preference: integer('preference').notNull().default(0),
  },
  (t) => [uniqueIndex('categories_name_key').on(sql`lower(${t.categoryName})`)],
)

/**
 * Buy, swap-out (sell) and swap-in (bridge) links: one table for the three lists of one pattern
 * (contract/links.ts). `preference` is the display order within a kind, kept 1..count without gaps
 * or duplicates by the writes (server/kit/preference.ts), not by a unique index: renumbering moves
 * many rows in one statement, which a unique index would refuse halfway.
 */
export const links = pgTable(
  'links',
  {
    id: id(),
    createdAt: createdAt(),
    kind: text('kind', { enum: ['buy', 'sell', 'bridge'] }).notNull(),
    url: text('url').notNull(),
    preference: integer('preference').notNull(),
  },
  (t) => [index('links_kind_preference_idx').on(t.kind, t.preference)],
)

/** The Social Links screen's one record (spec section 3, Social media settings); '' is a link not set. */
export const socialMedia = pgTable('social_media', {
  id: id(),
  discordLink: text('discord_link').notNull().default(''),
  twitterLink: text('twitter_link').notNull().default(''),
  facebookLink: text('facebook_link').notNull().default(''),
  instagramLink: text('instagram_link').notNull().default(''),
  telegramLink: text('telegram_link').notNull().default(''),
})

/** The site settings' one record (spec section 3): the Settings and Version screens. */
export const siteSettings = pgTable('site_settings', {
  id: id(),
  version: text('version').notNull().default(''),
  contactPerson: text('contact_person').notNull().default(''),
  email: text('email').notNull().default(''),
  sitename: text('sitename').notNull().default(''),
  siteDescription: text('site_description').notNull().default(''),
  phoneNumber: text('phone_number').notNull().default(''),
  mobileNumber: text('mobile_number').notNull().default(''),
  address: text('address').notNull().default(''),
  googleAnalytics: text('google_analytics').notNull().default(''),
  socialLink1: text('social_link1').notNull().default(''),
  socialLink2: text('social_link2').notNull().default(''),
  socialLink3: text('social_link3').notNull().default(''),
  socialLink4: text('social_link4').notNull().default(''),
  socialLink5: text('social_link5').notNull().default(''),
  regCode: text('reg_code').notNull().default(''),
  companyInfoLink: text('company_info_link').notNull().default(''),
  licenseInfoLink: text('license_info_link').notNull().default(''),
  copyrightText: text('copyright_text').notNull().default(''),
  /** File name under DATA_DIR/uploads ('' when none). */
  sitelogo: text('sitelogo').notNull().default(''),
  forcedliq: text('forcedliq', { enum: ['Enable', 'Disable'] }).notNull().default('Disable'),
  /** Homepage preference (spec section 3): whether the homepage content shows on the landing page. */
  homepageCmsVisible: boolean('homepage_cms_visible').notNull().default(false),
})

/**
 * Restricted countries (contract/restrictions.ts): the spec's one record holding a list, stored
 * as one row per country. `code` is the ISO 3166 alpha-2 code of the country name.
 */
export const restrictedCountries = pgTable(
  'restricted_countries',
  {
    id: id(),
    createdAt: createdAt(),
    code: text('code').notNull(),
    country: text('country').notNull(),
    hide: boolean('hide').notNull().default(false),
  },
  (t) => [uniqueIndex('restricted_countries_code_key').on(t.code)],
)

/**
 * Games (contract/games.ts). `images` are file names under DATA_DIR/uploads in display order (up to
 * 5), `video` one file name or ''. A category in use by games cannot be deleted (restrict).
 * `preference` is the display order, kept 1..count by server/kit/preference.ts.
 */
export const games = pgTable(
  'games',
  {
    id: id(),
    createdAt: createdAt(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    operatingsystem: text('operatingsystem', { enum: ['Android', 'ios', 'both', ''] }).notNull(),
    liveLink: text('live_link').notNull(),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    video: text('video').notNull().default(''),
    preference: integer('preference').notNull(),
    isGameBackend: boolean('is_game_backend').notNull().default(false),
    freeze: boolean('freeze').notNull().default(false),
  },
  (t) => [
    index('games_preference_idx').on(t.preference),
    index('games_category_idx').on(t.categoryId),
    index('games_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
  ],
)

/** Homepage content blocks (contract/homepage.ts); `image` is a file name under DATA_DIR/uploads. */
export const homepageContent = pgTable(
  'homepage_content',
  {
    id: id(),
    createdAt: createdAt(),
    title: text('title').notNull(),
    link: text('link').notNull(),
    image: text('image').notNull(),
  },
  (t) => [index('homepage_content_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

/** The Edit Token screen's one record (ours: the spec shows the fields, not a save call). */
export const tokenSettings = pgTable('token_settings', {
  id: id(),
  tokenName: text('token_name').notNull().default(''),
  /** A non-negative decimal, kept exact. */
  price: numeric('price', { precision: 30, scale: 10 }).notNull().default('0'),
  productId: text('product_id').notNull().default(''),
  ticketCount: integer('ticket_count').notNull().default(0),
})

/**
 * Requests for access made at /register (contract/access-requests.ts): never an account. The
 * password is hashed as Create User's is; the email is stored lower-cased and requested once.
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
  },
  (t) => [uniqueIndex('access_requests_email_key').on(t.email), index('access_requests_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

/** Who changed what and when: one row per successful write through the API (issue 4, item 5). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: createdAt(),
    adminId: text('admin_id'),
    /** The endpoint path, e.g. /addcategory. */
    action: text('action').notNull(),
    recordId: text('record_id'),
    ip: text('ip'),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc()), index('audit_log_admin_idx').on(t.adminId)],
)

/** Every mail the server sends, kept so it can be read without SMTP (DESIGN.md, "Data and storage"). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    createdAt: createdAt(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_at_idx').on(t.createdAt.desc())],
)

/** One-time codes for password flows: only a hash is stored, with a life and an attempt count. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: id(),
    createdAt: createdAt(),
    /** Lower-cased email the code was sent to (the forgot flow may name an unknown email). */
    email: text('email').notNull(),
    /** What the code is for, e.g. 'change-password' or 'forgot-password'. */
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('otp_codes_email_purpose_idx').on(t.email, t.purpose)],
)

/**
 * Every column that holds stored upload names (files under DATA_DIR/uploads, named by the server),
 * a text or a text array. This is the one list the sweep (server/kit/sweep.ts) reads to tell files
 * in use from orphans: a file that no listed column names is removed once it is old enough, so a
 * new upload column must be listed here (server/kit/sweep.test.ts fails when one is not).
 */
export const uploadColumns = [categories.image, games.images, games.video, homepageContent.image, siteSettings.sitelogo] as const

export type AdminRow = typeof admins.$inferSelect
export type LoginFailureRow = typeof loginFailures.$inferSelect
export type LeadRow = typeof leads.$inferSelect
export type CategoryRow = typeof categories.$inferSelect
export type LinkRow = typeof links.$inferSelect
export type SocialMediaRow = typeof socialMedia.$inferSelect
export type SiteSettingsRow = typeof siteSettings.$inferSelect
export type AccessRequestRow = typeof accessRequests.$inferSelect
export type BrandRow = typeof brands.$inferSelect
export type GameRow = typeof games.$inferSelect
export type RestrictedCountryRow = typeof restrictedCountries.$inferSelect
export type HomepageContentRow = typeof homepageContent.$inferSelect
export type TokenSettingsRow = typeof tokenSettings.$inferSelect
