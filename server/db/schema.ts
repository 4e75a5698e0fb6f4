/**
 * The database, in drizzle's pg-core. One schema serves PGlite and PostgreSQL; migrations are
 * generated from it with `npx drizzle-kit generate` into ./migrations and applied at start.
 *
 * Ids are text holding a random UUID: opaque to the client (contract/common.ts), and a malformed id from a
 * request simply matches no row instead of raising a cast error.
 */
import { sql } from 'drizzle-orm'
import { bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { providers } from '#contract/common'
import { TOKEN_CURRENCIES } from '#contract/ticket-product'

const id = () =>
  text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`)
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
/**
 * The edit version of a record a form edits: every save of the edit
 * form adds one, and a save naming an older version is refused (server/kit/request/edit-version.ts).
 */
const editVersion = () => integer('version').notNull().default(1)

/**
 * Columns that hold stored uploads (files under DATA_DIR/uploads, named by the server) are made
 * with these helpers, and only these: server/db/upload-columns.ts collects every column so made
 * from the tables, the one list the sweep reads to tell files in use from orphans (a file no such
 * column names is removed once old enough), and backup and undo beside it. A text column holds one
 * name, a text array several, a jsonb one (a held link change's files) a list of stored files,
 * each with its `name`. server/kit/ground/sweep.test.ts fails when a column named like a file is not made
 * with one.
 *
 * Why the builder's runtime config: drizzle builds each column from its builder's config object,
 * and keeps that same object on the column, so a mark set on the builder is found on the column
 * without a list of table and column names kept beside the tables.
 */
const uploadConfigs = new WeakSet<object>()
const configOf = (builderOrColumn: object): object => (builderOrColumn as { config?: object }).config ?? builderOrColumn
const holdsUploads = <B extends object>(builder: B): B => {
  uploadConfigs.add(configOf(builder))
  return builder
}
/** One stored upload's name. */
const uploadName = (name: string) => holdsUploads(text(name))
/** Several stored uploads' names, in order. */
const uploadNames = (name: string) => holdsUploads(text(name).array())
/** A list of stored files, each with its `name`. */
const uploadFiles = (name: string) => holdsUploads(jsonb(name))
/** Whether a column of the tables was made by `uploadName`, `uploadNames` or `uploadFiles`. */
export const holdsUploadsColumn = (column: object): boolean => uploadConfigs.has(configOf(column))

/**
 * Columns that hold a link the wallet's users follow (contract/outward-links.ts) are made with
 * `outwardLink`, as upload columns are marked above: server/db/link-columns.ts collects them, and a
 * write that puts a value back without a form (a revert from the audit log, an undo) is held to the
 * allowed domains and to a second admin by these columns. server/testing/link-columns.test.ts fails
 * when a form's link field is stored in a column not so made.
 */
const linkConfigs = new WeakSet<object>()
const outwardLink = (name: string) => {
  const builder = text(name)
  linkConfigs.add(configOf(builder))
  return builder
}
/** Whether a column of the tables was made by `outwardLink`. */
export const holdsOutwardLinkColumn = (column: object): boolean => linkConfigs.has(configOf(column))

export const admins = pgTable(
  'admins',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull(),
    /** Always stored lower-cased, so uniqueness and login ignore case. */
    email: text('email').notNull(),
    /**
     * Null until the admin sets one from a mailed set-password link (an approved access request):
     * such an account refuses every password, as a wrong one (server/kit/ground/access/auth.ts, Passwords).
     */
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['superadmin', 'subadmin'] }).notNull(),
    accessLevel: text('access_level', { enum: ['Admin', 'View Only'] }).notNull(),
    /** Route paths this admin may open; empty means every route (requirements R2.4). */
    restrictions: text('restrictions').array().notNull().default(sql`'{}'::text[]`),
    /** 1 means active (requirements R3.12); anything else cannot log in or use a token. */
    activate: integer('activate').notNull().default(1),
    /** Part of every token; bumping it revokes all tokens issued before. */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * The TOTP secret (pending until `totpEnabled`), sealed with AES-256-GCM by server/kit/ground/access/two-factor-secret.ts.
     * Only that module reads or writes it; a value without its prefix is a legacy plain secret.
     */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last TOTP time step accepted, so a code cannot be used twice. */
    totpLastStep: integer('totp_last_step'),
    /** Edit User's and Profile's edit version (not the token version above). */
    version: editVersion(),
    // The login lockout is not here but in login_failures, keyed by email: it must also count
    // emails no admin has, or locking would tell which emails exist.
  },
  (t) => [uniqueIndex('admins_email_key').on(t.email)],
)

/**
 * Failed sign-in attempts per lower-cased email from any address, whether or not an admin has that
 * email (see server/kit/ground/access/lockout.ts). Past a threshold each failure makes the next attempt wait
 * (`slowUntil`, the column kept its first name): the email slows down, it never locks. The lock
 * is per email and address, in login_pair_failures. A row without a running wait and untouched
 * for a day is stale: its count starts again and it is pruned.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    email: text('email').primaryKey(),
    failures: integer('failures').notNull().default(0),
    /** No attempt for this email is checked before this time (the slow-down). */
    slowUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
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
    type: text('type', { enum: providers }).notNull(),
    visits: integer('visits').notNull().default(0),
    version: editVersion(),
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
    /**
     * The newsletter (contract/newsletter.ts): whether the lead receives it, and when it last
     * subscribed or unsubscribed. Cleared by the signed unsubscribe link in every newsletter mail.
     */
    subscribed: boolean('subscribed').notNull().default(false),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true, mode: 'date' }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' }),
    /**
     * Promotions: the lead's country as its ISO 3166 alpha-2 code (server/kit/rules/countries.ts),
     * '' when unknown. The promotion filter takes a listCountry name and matches its code.
     */
    country: text('country').notNull().default(''),
  },
  (t) => [
    // The promotion filter (FilterOption, countRecipients, Submit's select all) narrows by
    // provider and by country (with or without provider), newest first; its email filter uses
    // leads_search_trgm_idx below (server/areas/promotions/routes.ts).
    index('leads_provider_idx').on(t.provider, t.createdAt.desc(), t.id.desc()),
    index('leads_country_provider_idx').on(t.country, t.provider, t.createdAt.desc(), t.id.desc()),
    // The newsletter's subscriber list (/allUser), newest first, holds the subscribed leads only.
    index('leads_subscribed_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.subscribed}`),
    // View Brand lists a brand's emails, newest first.
    index('leads_brand_idx').on(t.brandId, t.createdAt.desc(), t.id.desc()),
    // Newest first, with id as the tie-break, for pages and the keyset-paged export.
    index('leads_created_at_id_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The list sorted by name or email (alphabetical whatever the case: lower(), as
    // server/kit/request/paging.ts `caseless` sorts), id the tie-break; read backwards for descending.
    index('leads_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('leads_email_sort_idx').on(sql`lower(${t.email})`, t.id),
    // Substring search over name, email and wallet address stays fast on a million rows with a
    // trigram index; the query must use exactly this expression (see server/areas/leads/routes.ts).
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
    /** Whether staff still have to answer it (contract/leads.ts ENQUIRY_STATUSES); an Admin sets it. */
    status: text('status', { enum: ['Open', 'Resolved'] }).notNull().default('Open'),
  },
  (t) => [
    index('contact_enquiries_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The list filtered by status, newest first, and the menu's count of open enquiries.
    index('contact_enquiries_status_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
)

export const categories = pgTable(
  'categories',
  {
    id: id(),
    createdAt: createdAt(),
    categoryName: text('category_name').notNull(),
    /** File name under DATA_DIR/uploads, chosen by the server. */
    image: uploadName('image').notNull(),
    preference: integer('preference').notNull().default(0),
    version: editVersion(),
  },
  (t) => [uniqueIndex('categories_name_key').on(sql`lower(${t.categoryName})`)],
)

/**
 * Buy, swap-out (sell) and swap-in (bridge) links: one table for the three lists of one pattern
 * (contract/links.ts). `preference` is the display order within a kind, kept 1..count without gaps
 * or duplicates by the writes (server/kit/request/preference.ts), not by a unique index: renumbering moves
 * many rows in one statement, which a unique index would refuse halfway.
 */
export const links = pgTable(
  'links',
  {
    id: id(),
    createdAt: createdAt(),
    kind: text('kind', { enum: ['buy', 'sell', 'bridge'] }).notNull(),
    url: outwardLink('url').notNull(),
    preference: integer('preference').notNull(),
    version: editVersion(),
  },
  (t) => [index('links_kind_preference_idx').on(t.kind, t.preference)],
)

/** The Social Links screen's one record (requirements R3.7, Social media settings); '' is a link not set. */
export const socialMedia = pgTable('social_media', {
  id: id(),
  discordLink: outwardLink('discord_link').notNull().default(''),
  twitterLink: outwardLink('twitter_link').notNull().default(''),
  facebookLink: outwardLink('facebook_link').notNull().default(''),
  instagramLink: outwardLink('instagram_link').notNull().default(''),
  telegramLink: outwardLink('telegram_link').notNull().default(''),
  version: editVersion(),
})

/** The site settings' one record (requirements R3.13): the Settings and Version screens. */
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
  socialLink1: outwardLink('social_link1').notNull().default(''),
  socialLink2: outwardLink('social_link2').notNull().default(''),
  socialLink3: outwardLink('social_link3').notNull().default(''),
  socialLink4: outwardLink('social_link4').notNull().default(''),
  socialLink5: outwardLink('social_link5').notNull().default(''),
  regCode: text('reg_code').notNull().default(''),
  companyInfoLink: outwardLink('company_info_link').notNull().default(''),
  licenseInfoLink: outwardLink('license_info_link').notNull().default(''),
  copyrightText: text('copyright_text').notNull().default(''),
  /** File name under DATA_DIR/uploads ('' when none). */
  sitelogo: uploadName('sitelogo').notNull().default(''),
  forcedliq: text('forcedliq', { enum: ['Enable', 'Disable'] }).notNull().default('Disable'),
  /** Homepage preference (requirements R3.15): whether the homepage content shows on the landing page. */
  homepageCmsVisible: boolean('homepage_cms_visible').notNull().default(false),
  /**
   * Whether mass sends leave out the leads whose country is on the Restriction List (not hidden):
   * on unless a superadmin turned it off (server/kit/rules/audience.ts, requirements R2.37).
   */
  restrictedCountryRule: boolean('restricted_country_rule').notNull().default(true),
  /**
   * The domains outward links may lead to (contract/outward-links.ts): `example.com` or
   * `*.example.com`; empty allows every host. Changed by the superadmin only.
   */
  outwardLinkDomains: text('outward_link_domains').array().notNull().default(sql`'{}'::text[]`),
  /**
   * Two admins for outward links (server/kit/request/link-changes.ts): while on, a write that changes a
   * link users will follow waits in `link_changes` until another admin approves it.
   */
  twoAdminLinks: boolean('two_admin_links').notNull().default(false),
  /**
   * The frequency cap of mass sends: while on, a lead who was sent `frequency_cap_messages`
   * promotions and newsletters together within the last `frequency_cap_days` days is left out of
   * the next (server/kit/rules/audience.ts). Off unless a superadmin turned it on; the numbers are kept
   * while it is off.
   */
  frequencyCapOn: boolean('frequency_cap_on').notNull().default(false),
  frequencyCapMessages: integer('frequency_cap_messages').notNull().default(3),
  frequencyCapDays: integer('frequency_cap_days').notNull().default(7),
  /** The Settings form's edit version; named apart from `version`, the site version the Version screen edits. */
  revision: integer('revision').notNull().default(1),
})

/**
 * Restricted countries (contract/restrictions.ts): one record holding a list (requirements R3.11), stored
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
 * `preference` is the display order, kept 1..count by server/kit/request/preference.ts.
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
    liveLink: outwardLink('live_link').notNull(),
    images: uploadNames('images').notNull().default(sql`'{}'::text[]`),
    video: uploadName('video').notNull().default(''),
    preference: integer('preference').notNull(),
    isGameBackend: boolean('is_game_backend').notNull().default(false),
    freeze: boolean('freeze').notNull().default(false),
    version: editVersion(),
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
    link: outwardLink('link').notNull(),
    image: uploadName('image').notNull(),
    version: editVersion(),
  },
  (t) => [index('homepage_content_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

/** The Edit Token screen's one record (ours: requirements R2.16 gives the fields, not a save call). */
export const tokenSettings = pgTable('token_settings', {
  id: id(),
  tokenName: text('token_name').notNull().default(''),
  /** A non-negative decimal, kept exact. */
  price: numeric('price', { precision: 30, scale: 10 }).notNull().default('0'),
  /** What the price is counted in. */
  currency: text('currency', { enum: TOKEN_CURRENCIES }).notNull().default('USD'),
  productId: text('product_id').notNull().default(''),
  ticketCount: integer('ticket_count').notNull().default(0),
  version: editVersion(),
})

/**
 * Requests for access made at /register (contract/access-requests.ts): never an account, and no
 * password (the approved member sets one from a mailed link, `password_setups`); the email is
 * stored lower-cased and requested once.
 * A request is unconfirmed until the link mailed to its address is opened: the link's secret is
 * kept only as its SHA-256 (`confirm_token_hash`), alive until `confirm_expires_at`; staff see
 * and approve confirmed requests only (`confirmed_at`).
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: id(),
    createdAt: createdAt(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true, mode: 'date' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('access_requests_email_key').on(t.email),
    uniqueIndex('access_requests_confirm_token_key').on(t.confirmTokenHash),
    index('access_requests_confirmed_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.confirmedAt} is not null`),
  ],
)

/**
 * Who changed what and when: one row per successful write through the API and
 * per sign-in event (contract/audit.ts, AUDIT_EVENTS). Rows are never changed: no call does, and
 * a trigger (migration audit-immutable) refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: createdAt(),
    adminId: text('admin_id'),
    /** The endpoint path, e.g. /addcategory, or an event key (sign-in, lockout...). */
    action: text('action').notNull(),
    recordId: text('record_id'),
    ip: text('ip'),
    /** What else the row says, e.g. the email a failed sign-in named. */
    detail: text('detail').notNull().default(''),
    /**
     * What the write changed, field by field (server/kit/request/audit-changes.ts): the rows it created,
     * updated or deleted with their values before and after, secrets only named. Null on rows
     * that name no change (sign-in events).
     */
    changes: jsonb('changes'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_log_admin_idx').on(t.adminId, t.at.desc()),
    index('audit_log_action_idx').on(t.action, t.at.desc()),
    index('audit_log_record_idx').on(t.recordId, t.at.desc()),
  ],
)

// ---------------------------------------------------------------------------------------------
// The mail queue (server/kit/ground/mail/mail.ts, docs/decisions/006-job-queue.md)
// ---------------------------------------------------------------------------------------------

/**
 * What became of a mail: `pending` (waiting, being sent, or retrying after `next_attempt_at`),
 * `paused` (its group is paused), `sent` (the SMTP server accepted it), `failed` (given up),
 * `held` (no SMTP_URL: kept sealed, never sent), `logged` (no SMTP_URL, body printed to the log by
 * the development switch MAIL_LOG_BODIES), `cancelled` (its group was cancelled before it went).
 */
export const MAIL_STATUSES = ['pending', 'paused', 'sent', 'failed', 'held', 'logged', 'cancelled'] as const
export type MailStatus = (typeof MAIL_STATUSES)[number]

/**
 * Every mail the server sends, one row each. The body (subject, text, HTML, headers) is stored
 * sealed with AES-256-GCM (`body`) and set to null once the mail is sent or given up; the row
 * keeps the recipient, the template identifier, the group, the status and the times.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    createdAt: createdAt(),
    to: text('to').notNull(),
    /** The template identifier the mail was rendered from, for logs and counts (never the body). */
    template: text('template'),
    /** The send the mail belongs to, e.g. `newsletter:<id>`, so a send can count and cancel its mails. */
    group: text('send_group'),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
    /** Tries so far; a try is counted when it is claimed, so a crash mid-send counts too. */
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time: the backoff after a failure, or the lease of the worker sending it. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** The last error (an SMTP answer), or why the mail was held. */
    error: text('error'),
    /** `mb1:` + base64url(iv | tag | ciphertext) of the JSON body; null once sent or given up. */
    body: text('body'),
  },
  (t) => [
    index('mail_outbox_created_at_idx').on(t.createdAt.desc()),
    index('mail_outbox_group_idx').on(t.group, t.status).where(sql`${t.group} is not null`),
    // The metrics' counts by status (server/kit/ground/metrics.ts): an index-only scan, not the table's.
    index('mail_outbox_status_idx').on(t.status, t.group),
  ],
)

/**
 * The send rate per SMTP server, shared by every instance: each mail reserves the next slot
 * (`next_slot_at` moves on by 1 / MAIL_RATE_PER_SECOND) before it is sent.
 */
export const mailPace = pgTable('mail_pace', {
  /** The SMTP server as host:port (never its credentials). */
  server: text('server').primaryKey(),
  nextSlotAt: timestamp('next_slot_at', { withTimezone: true, mode: 'date' }).notNull(),
})

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
 * The durable job queue (server/kit/ground/queue.ts, docs/decisions/006-job-queue.md). A done job is
 * deleted; one given up after its attempts keeps `failed_at` and `last_error` for an operator.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    createdAt: createdAt(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** While a job with a key exists, adding another with the same key does nothing. */
    key: text('key'),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    /** The worker holding the lease: only it may finish, retry or renew the job. */
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('jobs_key_key').on(t.key), index('jobs_due_idx').on(t.kind, t.runAt).where(sql`${t.failedAt} is null`)],
)

/**
 * Session tokens seen by the server, by their `jti` (server/kit/ground/access/sessions.ts):
 * when the token was last used, for the idle limit, and whether Logout revoked it. Login writes the
 * row with what the admin's session list shows (the device, the address, the sign-in time); a
 * token issued otherwise gets its row on first use. Rows are pruned once the token has expired,
 * when nothing can use it anyway.
 */
export const sessionTokens = pgTable(
  'session_tokens',
  {
    jti: text('jti').primaryKey(),
    adminId: text('admin_id').notNull(),
    /** The token's own expiry (`exp`). */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** The token's version (`tv`): a row of an older version than its admin's is a session ended by force. */
    tokenVersion: integer('token_version'),
    /** Browser and OS as read from the sign-in's User-Agent ('Chrome 131 on Linux'); null when not signed in here. */
    device: text('device'),
    /** The client address at sign-in (as TRUST_PROXY decides it). */
    address: text('address'),
    signedInAt: timestamp('signed_in_at', { withTimezone: true, mode: 'date' }),
    /** When the session's holder last proved to be its owner (sign-in, or a step-up proof). */
    provedAt: timestamp('proved_at', { withTimezone: true, mode: 'date' }),
    /**
     * View as (contract/staff.ts, startViewAs): the staff member this superadmin's session reads
     * as, read only, until endViewAs or Logout; null for the session's own view. It lives and ends
     * with the row, so with the session.
     */
    viewingAs: text('viewing_as'),
  },
  (t) => [index('session_tokens_expires_at_idx').on(t.expiresAt), index('session_tokens_admin_id_idx').on(t.adminId)],
)

/**
 * The devices each admin has signed in from (the `device` string of their sign-ins), kept beyond
 * the session rows, which are pruned when their tokens expire: a sign-in from a device not listed
 * here is mailed to the admin (server/kit/rules/mail/account-notices.ts). Goes with its admin.
 */
export const adminDevices = pgTable(
  'admin_devices',
  {
    adminId: text('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.device] })],
)

/**
 * The passkeys (WebAuthn credentials) of each admin (server/areas/passkeys/webauthn.ts): a passkey
 * signs its one admin in, without a password, and proves the session's owner for step-up. Only the
 * public key is kept (the private key never leaves the authenticator), with the signature counter
 * the authenticator reported last: an assertion whose counter does not move past it is refused as
 * a possible clone. Goes with its admin.
 */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    id: id(),
    createdAt: createdAt(),
    adminId: text('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    /** The name its owner gave it ("Work laptop"). */
    name: text('name').notNull(),
    /** The credential id, base64url, as the authenticator made it: unique across every admin. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** How the browser said it can reach the authenticator ('internal', 'usb', 'hybrid', ...). */
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** Whether the authenticator may copy it to the owner's other devices (a synced passkey). */
    backedUp: boolean('backed_up').notNull().default(false),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('admin_passkeys_credential_id_key').on(t.credentialId), index('admin_passkeys_admin_id_idx').on(t.adminId)],
)

/**
 * The WebAuthn challenges handed out and not used yet, in the database so that any instance can
 * check the answer to another's challenge. Each is used once (deleted as it is checked, whatever
 * the result) and lives a few minutes (PASSKEY_CHALLENGE_MS); expired rows are pruned as new ones
 * are made. `adminId` is the admin a registration or step-up challenge was given to (null for a
 * sign-in, where the passkey names its admin); `jti` the session a step-up challenge belongs to.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    /** The challenge itself, base64url: what the authenticator signs. */
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign-in', 'step-up'] }).notNull(),
    adminId: text('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    jti: text('jti'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('passkey_challenges_expires_at_idx').on(t.expiresAt)],
)

// ---------------------------------------------------------------------------------------------
// Automated Emails (contract/emails.ts, server/areas/emails/routes.ts, server/kit/ground/mail/templates.ts)
// ---------------------------------------------------------------------------------------------

/**
 * The templates the server's own mails are rendered from, one per identifier (contract/emails.ts
 * TEMPLATE_VARIABLES lists them). Installed at every start when missing (ensureTemplates), so a
 * fresh production database can send its first OTP. `content` is sanitised HTML.
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: id(),
    identifier: text('identifier').notNull(),
    subject: text('subject').notNull(),
    content: text('content').notNull(),
    langCode: text('lang_code').notNull().default('en'),
    status: text('status', { enum: ['active', 'inactive'] }).notNull().default('active'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Who saved the current subject and content; null for what the server installed. */
    updatedBy: text('updated_by').references(() => admins.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('email_templates_identifier_key').on(t.identifier)],
)

/** Each save keeps the subject and content it replaces, with when and by whom they had been saved. */
export const emailTemplateVersions = pgTable(
  'email_template_versions',
  {
    id: id(),
    templateId: text('template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    content: text('content').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull(),
    savedBy: text('saved_by').references(() => admins.id, { onDelete: 'set null' }),
  },
  (t) => [index('email_template_versions_template_idx').on(t.templateId, t.savedAt.desc(), t.id.desc())],
)

// ---------------------------------------------------------------------------------------------
// Newsletter (contract/newsletter.ts, server/areas/newsletter/routes.ts); subscribers are `leads.subscribed`
// ---------------------------------------------------------------------------------------------

/**
 * Four eyes on a mass send (server/kit/rules/four-eyes.ts): who asked for a send over the threshold
 * (null when it needed no approval), who approved or rejected it and when (null while it waits).
 */
const approvalColumns = () => ({
  approvalRequestedBy: text('approval_requested_by').references(() => admins.id, { onDelete: 'set null' }),
  approvalDecidedBy: text('approval_decided_by').references(() => admins.id, { onDelete: 'set null' }),
  approvalDecidedAt: timestamp('approval_decided_at', { withTimezone: true, mode: 'date' }),
})

/**
 * A send to start later (server/kit/rules/send-later.ts): its time, and what it will be sent to, kept
 * until then (the audience is frozen as its time comes, not when it was scheduled). Both stay
 * once it starts, as its record.
 */
const scheduleColumns = <T>() => ({
  scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
  audience: jsonb('audience').$type<T>(),
})

/**
 * The recipients each admin asked a mass send to reach (a newsletter, a promotion round), kept
 * for the four-eyes window: a requester's sends within FOUR_EYES_WINDOW_HOURS are added up against
 * the threshold, so fifty sends of a thousand need approval as one of fifty thousand would. A
 * rejected send reached nobody: its row is removed with the decision.
 */
export const sendRequests = pgTable(
  'send_requests',
  {
    id: id(),
    at: createdAt(),
    adminId: text('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    recipients: integer('recipients').notNull(),
    /** `newsletter:<id>` or `promotion:<id>:<round>`. */
    ref: text('ref').notNull(),
  },
  (t) => [index('send_requests_admin_at_idx').on(t.adminId, t.at), index('send_requests_ref_idx').on(t.ref)],
)

/**
 * One newsletter sent from the Newsletter screen: its subject and sanitised body, who sent it,
 * where it stands, and how many recipients were frozen when it was made. The mails themselves are
 * in the mail queue under the group `newsletter:<id>`, which gives the sent and failed counts.
 * `template_content` is the newsletter template as it was at Send: what an approver sees is what
 * goes out, whatever is saved on Automated Emails afterwards.
 */
export const newsletterSends = pgTable(
  'newsletter_sends',
  {
    id: id(),
    createdAt: createdAt(),
    subject: text('subject').notNull(),
    content: text('content').notNull(),
    templateContent: text('template_content').notNull().default(''),
    createdBy: text('created_by').references(() => admins.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['sending', 'paused', 'done', 'cancelled', 'awaiting', 'rejected', 'scheduled'] }).notNull().default('sending'),
    total: integer('total').notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...approvalColumns(),
    ...scheduleColumns<{ all: boolean; id: string[] }>(),
  },
  (t) => [index('newsletter_sends_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

/**
 * A send's recipients, frozen at Send: one row per send and lead (the primary key is the duplicate
 * guard). `state` is the job's record of what it did, written in the transaction that queues the
 * mail: `pending` not yet handled, `queued` its mail is in the mail queue (`mail_id`), `skipped`
 * the lead had unsubscribed by then, `cancelled` the send was cancelled first.
 */
export const newsletterRecipients = pgTable(
  'newsletter_recipients',
  {
    sendId: text('send_id')
      .notNull()
      .references(() => newsletterSends.id, { onDelete: 'cascade' }),
    leadId: text('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['pending', 'queued', 'skipped', 'cancelled', 'excluded'] }).notNull().default('pending'),
    /** Why an `excluded` recipient was left out (an ExclusionReason of contract/forecast.ts). */
    reason: text('reason'),
    mailId: text('mail_id'),
  },
  (t) => [
    primaryKey({ columns: [t.sendId, t.leadId] }),
    index('newsletter_recipients_state_idx').on(t.sendId, t.state),
    // The frequency cap finds a lead's queued mails (then each by the outbox's primary key, whose
    // row says whether and when it was sent: server/kit/rules/audience.ts).
    index('newsletter_recipients_lead_idx').on(t.leadId, t.mailId).where(sql`${t.state} = 'queued'`),
  ],
)

// ---------------------------------------------------------------------------------------------
// Promotions (contract/promotions.ts, server/areas/promotions/routes.ts, server/areas/promotions/delivery.ts)
// ---------------------------------------------------------------------------------------------

/**
 * A promotion and its current delivery round. The counters are the current round's and change in
 * the transactions that change its deliveries (server/areas/promotions/delivery.ts), so the list reads them
 * without counting: `total` deliveries in the round, `sent` and `failed` of those; the rest are
 * pending, or were never sent when `status` is 'cancelled'.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: id(),
    createdAt: createdAt(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** The stored upload name of its image, '' for none. */
    image: uploadName('image').notNull().default(''),
    selectall: boolean('selectall').notNull().default(false),
    createdBy: text('created_by').references(() => admins.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'sending', 'done', 'cancelled', 'awaiting', 'rejected', 'scheduled'] }).notNull().default('queued'),
    /** 1 at Submit; each Resend adds one. */
    round: integer('round').notNull().default(1),
    /** Recipients frozen at Submit (promotion_recipients). */
    recipientCount: integer('recipient_count').notNull(),
    total: integer('total').notNull(),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** The current round's deliveries left out by the audience rules when they were due (server/kit/rules/audience.ts). */
    excluded: integer('excluded').notNull().default(0),
    /** The current round's latest delivery. */
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    /** The current round's four-eyes approval (server/kit/rules/four-eyes.ts). */
    ...approvalColumns(),
    ...scheduleColumns<{ email: string; provider: string; country: string; id: string[] }>(),
  },
  (t) => [index('promotions_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
)

/**
 * Who a promotion goes to, frozen at Submit: one row per promotion and lead (the primary key),
 * with the email as it was then. No foreign key to leads: the list is a record of the Submit.
 */
export const promotionRecipients = pgTable(
  'promotion_recipients',
  {
    promotionId: text('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    leadId: text('lead_id').notNull(),
    email: text('email').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.leadId] }),
    // listnotfiyuser pages a promotion's recipients by email.
    index('promotion_recipients_email_idx').on(t.promotionId, t.email, t.leadId),
    // The delivery's duplicate rule looks for an earlier recipient with the same address.
    index('promotion_recipients_address_idx').on(t.promotionId, sql`lower(${t.email})`, t.leadId),
  ],
)

/**
 * One delivery of a promotion to a recipient in one round: the per-recipient send record and the
 * duplicate guard (the primary key: a round reaches a lead once, and a repeated Resend cannot add
 * a second round's rows for the same round number). A worker claims pending rows in batches
 * (`batch_id`, leased until `locked_until`), and marks them sent or failed in the transaction of
 * the transport's own write; a failed batch waits until `next_attempt_at`.
 */
export const promotionDeliveries = pgTable(
  'promotion_deliveries',
  {
    promotionId: text('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    leadId: text('lead_id').notNull(),
    round: integer('round').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'cancelled', 'excluded'] }).notNull().default('pending'),
    /** Why an `excluded` delivery was left out (an ExclusionReason of contract/forecast.ts). */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    /** The batch it was claimed in; kept across retries so a receiver can tell a repeat. */
    batchId: text('batch_id'),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.leadId, t.round] }),
    // The worker's claims and the cancel: pending rows of a round, by batch (small once sent).
    index('promotion_deliveries_pending_idx').on(t.promotionId, t.round, t.batchId, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // A failed-only Resend reads the failed rows of the current round. Partial, like the one above:
    // a batch's update by (promotion, round, lead) then has only the primary key to use, whatever
    // the planner's estimates (a new promotion's rows have no statistics yet).
    index('promotion_deliveries_failed_idx').on(t.promotionId, t.round).where(sql`${t.status} = 'failed'`),
    // A lead's page lists what was sent to that lead, across every promotion.
    index('promotion_deliveries_lead_idx').on(t.leadId),
    // The frequency cap counts a lead's deliveries sent within the last days (server/kit/rules/audience.ts).
    index('promotion_deliveries_sent_idx').on(t.leadId, t.sentAt).where(sql`${t.status} = 'sent'`),
  ],
)

/**
 * What the default transport delivers: the notification as the lead's app reads it, one per
 * promotion, lead and round (the unique key makes a redelivery after a crash a no-op). Deleting
 * the promotion removes them.
 */
export const leadNotifications = pgTable(
  'lead_notifications',
  {
    id: id(),
    createdAt: createdAt(),
    leadId: text('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    promotionId: text('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** The promotion's stored image name, '' for none. */
    image: uploadName('image').notNull().default(''),
  },
  (t) => [
    uniqueIndex('lead_notifications_delivery_key').on(t.promotionId, t.leadId, t.round),
    // A lead's notifications, newest first (what the app reads; also the lead's cascade delete).
    index('lead_notifications_lead_idx').on(t.leadId, t.createdAt.desc()),
  ],
)

/**
 * Undo (server/kit/request/undo.ts): what a delete or a flip took away, kept for UNDO_SECONDS
 * (plus a grace) so the admin who did it can put it back. A deleted record's row, with the rows
 * its delete cascaded to and the references it cleared, is kept in `trash_rows`, one row each,
 * exactly as stored; its files stay until the entry is purged. `action` says how undo restores:
 * 'delete' inserts the rows again, 'update' writes the kept column values back (a game's freeze flag).
 *
 * A big delete moves its rows in short transactions, and so does its undo: `state` says where
 * the entry is ('taking' while a delete moves rows in, 'kept' for the undo window, 'restoring'
 * while an undo moves them out). One record has at most one entry moving at a time.
 */
export const trash = pgTable(
  'trash',
  {
    id: id(),
    /** `bulk`: a bulk run's undo (`record_id` the run, server/kit/request/bulk.ts); it keeps no rows of its own. */
    action: text('action', { enum: ['delete', 'update', 'bulk'] }).notNull(),
    /** The restorable kind (server/kit/request/undo.ts) that knows the record's table and order. */
    kind: text('kind').notNull(),
    recordId: text('record_id').notNull(),
    /** The endpoint whose write this undoes: undo checks its access rule again. */
    endpoint: text('endpoint').notNull(),
    /**
     * A delete: which tables its `trash_rows` parts belong to, in the order undo restores them
     * (`{ parts: [{ table, column }] }`, a few entries whatever the rows' count). An update: the
     * column values to write back.
     */
    rows: jsonb('rows').notNull(),
    /** Stored upload names the deleted rows held: removed when the entry is purged, not before. */
    files: uploadNames('files').notNull().default(sql`'{}'::text[]`),
    /** The record's place in its preference order when it was deleted (null: not an ordered list). */
    place: integer('place'),
    /** What undo answers when it succeeds. */
    message: text('message').notNull(),
    deletedBy: text('deleted_by').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Kept: undo is refused after this, and the purge removes the entry and its files. Taking or
     * restoring: the lease of the run moving its rows (each batch renews it); once it has passed,
     * the run is taken for stopped and the purge finishes its work.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    state: text('state', { enum: ['taking', 'kept', 'restoring'] }).notNull().default('kept'),
    /** The run moving the rows now (taking or restoring): each batch checks it still holds the entry. */
    mover: text('mover'),
    /** Who asked for the undo now restoring (null while a stopped delete is put back): its audit row names them. */
    restoredBy: text('restored_by'),
  },
  (t) => [
    index('trash_expires_at_idx').on(t.expiresAt),
    // A record being moved into or out of the trash cannot be deleted again meanwhile. Keyed by
    // the id's hash: a delete of many records names them all, longer than an index row may be.
    uniqueIndex('trash_moving_record_key').on(t.kind, sql`md5(${t.recordId})`).where(sql`${t.state} <> 'kept'`),
  ],
)

/**
 * A bulk action applied to a list's rows (server/kit/request/bulk.ts): one per Apply, run by a job on the
 * queue a batch at a time. Its rows (`bulk_run_rows`) are the set the preview showed, fixed at
 * Apply; nothing else is ever touched. Kept after it ends: the audit row names it, and its Undo
 * reads it.
 */
export const bulkRuns = pgTable(
  'bulk_runs',
  {
    id: id(),
    createdAt: createdAt(),
    /** The list (its name in server/kit/request/bulk.ts: 'games') and the action ('freeze'). */
    list: text('list').notNull(),
    action: text('action').notNull(),
    adminId: text('admin_id').notNull(),
    state: text('state', { enum: ['running', 'done', 'cancelled', 'failed'] }).notNull().default('running'),
    /** Rows the preview counted, and of them those changed, and those skipped at their turn (changed since). */
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** The `trash` entry whose token undoes the whole run, once it has ended. */
    undo: text('undo'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('bulk_runs_admin_idx').on(t.adminId, t.createdAt)],
)

/**
 * The rows of a bulk run, in the order it takes them: the record, its name as the preview showed
 * it, the value it held (an update's undo writes it back), and what became of it.
 */
export const bulkRunRows = pgTable(
  'bulk_run_rows',
  {
    run: text('run_id')
      .notNull()
      .references(() => bulkRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    recordId: text('record_id').notNull(),
    name: text('name').notNull(),
    before: jsonb('before'),
    /** pending, done, changed (skipped: not as previewed when its turn came), undone. */
    outcome: text('outcome', { enum: ['pending', 'done', 'changed', 'undone'] }).notNull().default('pending'),
    /** A delete's trash entry: its batch's, or its record's own (a record that takes other rows with it). */
    trash: text('trash'),
  },
  (t) => [
    primaryKey({ columns: [t.run, t.seq] }),
    // A batch takes the next rows of one outcome in order (pending when applied, done when
    // undone): by this index it starts at them, not past every row already taken.
    index('bulk_run_rows_outcome_idx').on(t.run, t.outcome, t.seq),
  ],
)

/**
 * The rows a trash entry keeps, one per row (never one value holding them all, so a delete that
 * takes a million rows is moved in and out by SQL in batches, and no value outgrows jsonb or
 * the server's memory). `part` indexes the entry's parts (`trash.rows`): part 0 is the records
 * themselves, the others the rows their delete cascaded to or the references it cleared (then
 * `row` holds the referring row's key and the value that was cleared).
 */
export const trashRows = pgTable(
  'trash_rows',
  {
    /**
     * The `trash` entry. Not a foreign key on purpose: deleting an entry would then look for its
     * rows through the index, and after a big undo that index still lists every row moved back
     * (dead until a vacuum): on PGlite, one statement of about 800 ms for 1,000,000 rows, holding
     * the event loop. Every path that deletes an entry has moved or purged its rows first
     * (server/kit/request/undo.ts).
     */
    entry: text('entry').notNull(),
    part: integer('part').notNull(),
    /** The row as stored (`to_jsonb`), or a cleared reference: its key and the old value. */
    row: jsonb('row').notNull(),
    /**
     * The order rows are moved back in: each batch of an undo starts after the last one's, so it
     * never walks the index over the rows already moved (dead until a vacuum).
     */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('trash_rows_entry_idx').on(t.entry, t.part, t.seq)],
)


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
export type SessionTokenRow = typeof sessionTokens.$inferSelect
export type EmailTemplateRow = typeof emailTemplates.$inferSelect
export type PromotionRow = typeof promotions.$inferSelect

// ---------------------------------------------------------------------------------------------
// Sign-in guessing limits (server/kit/ground/access/lockout.ts and otp.ts)
// ---------------------------------------------------------------------------------------------

/**
 * Failed sign-in attempts per (lower-cased email, client address): LOGIN_LOCK_FAILURES of them
 * lock that pair for LOGIN_LOCK_MINUTES. Other addresses can still try that email (slowed down by
 * login_failures), so nobody can lock an admin out by failing from their own address. Stale rows
 * (no running lock, untouched for a day) are pruned.
 */
export const loginPairFailures = pgTable(
  'login_pair_failures',
  {
    email: text('email').notNull(),
    address: text('address').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.email, t.address] }), index('login_pair_failures_updated_at_idx').on(t.updatedAt)],
)

/**
 * One-time-code checks per lower-cased email in a 24-hour window that starts with the first check,
 * right or wrong, whether or not an admin has the email: past OTP_DAILY_GUESSES every check is
 * refused until the window ends. Rows whose window ended are pruned.
 */
export const otpGuesses = pgTable(
  'otp_guesses',
  {
    email: text('email').primaryKey(),
    guesses: integer('guesses').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('otp_guesses_window_start_idx').on(t.windowStart)],
)

export type LoginPairFailureRow = typeof loginPairFailures.$inferSelect

/**
 * Saved views (contract/saved-views.ts): a list's filters, search and page size kept under
 * a name, per admin. `query` is the list's URL query string (`?search=ann&limit=50`).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: id(),
    createdAt: createdAt(),
    adminId: text('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    route: text('route').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull(),
  },
  (t) => [uniqueIndex('saved_views_name_key').on(t.adminId, t.route, sql`lower(${t.name})`)],
)

/**
 * The exact row count of the large lists' tables (server/kit/ground/row-counts.ts, COUNTED_TABLES), kept
 * by statement triggers (migration row-counts) in the writing transaction, so an unfiltered list
 * reads its count from one row instead of counting a million. `generation` grows with every
 * write to the table: a searched list's count is cached under it and never outlives a write.
 */
export const rowCounts = pgTable('row_counts', {
  tableName: text('table_name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
})

/**
 * Set-password links (server/areas/access-requests/password-setup.ts): mailed to an admin who has
 * no password yet (an approved access request), single-use, alive until `expires_at`. The link's
 * secret is kept only as its SHA-256, so a read of the table sets no password. One link per admin:
 * a new one replaces the last.
 */
export const passwordSetups = pgTable(
  'password_setups',
  {
    adminId: text('admin_id')
      .primaryKey()
      .references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('password_setups_token_key').on(t.tokenHash)],
)

/**
 * Addresses no mass send may reach (server/areas/newsletter, server/areas/promotions): one row per
 * address, kept lower-cased and trimmed so a lookup by a lead's email matches whatever its case.
 * `reason` is why: a provider's hard bounce or complaint (its signed event, or a permanent SMTP
 * refusal at send time), or an admin's manual entry; `source` says where it came from (the
 * provider event's id, 'smtp', or the admin's email) so staff can tell an entry's origin.
 */
export const suppressedAddresses = pgTable(
  'suppressed_addresses',
  {
    address: text('address').primaryKey(),
    reason: text('reason', { enum: ['bounce', 'complaint', 'manual'] }).notNull(),
    source: text('source').notNull().default(''),
    createdAt: createdAt(),
    createdBy: text('created_by').references(() => admins.id, { onDelete: 'set null' }),
  },
  (t) => [index('suppressed_addresses_created_at_idx').on(t.createdAt.desc(), t.address)],
)
export type SuppressedAddressRow = typeof suppressedAddresses.$inferSelect

/**
 * The mail provider's events already taken (server/areas/suppression, the mail-events webhook),
 * by the provider's event id: a provider sends an event again until it saw our 2xx, and a replay
 * must change nothing. Kept for good; one short row per bounce or complaint.
 */
export const mailEventsSeen = pgTable('mail_events_seen', {
  eventId: text('event_id').primaryKey(),
  type: text('type', { enum: ['bounce', 'complaint'] }).notNull(),
  address: text('address').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

/**
 * Writes held for a second admin because they change an outward link while "Two admins for
 * outward links" is on (server/kit/request/link-changes.ts): the call as it was sent, so an approval can
 * make it again, and the fields it would have changed. Only pending ones are kept: an approval,
 * a rejection or a withdrawal removes the row, and the audit log keeps what happened.
 */
export const linkChanges = pgTable(
  'link_changes',
  {
    id: id(),
    requestedAt: createdAt(),
    requestedBy: text('requested_by')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    /** The endpoint's name in the contract. */
    endpoint: text('endpoint').notNull(),
    /** The body as sent (multipart text fields as strings). */
    input: jsonb('input').notNull(),
    /** Files of a multipart call, already stored: given to the call again on approval, removed otherwise. */
    files: uploadFiles('files').notNull().default(sql`'[]'::jsonb`),
    /** The record the write names ('' for a new one). */
    recordId: text('record_id').notNull().default(''),
    /** What the write would have changed (server/kit/request/audit-changes.ts StoredChanges). */
    changes: jsonb('changes').notNull(),
    /** The outward-link fields of the input it changes. */
    fields: text('fields').array().notNull(),
  },
  (t) => [index('link_changes_requested_at_idx').on(t.requestedAt)],
)
export type LinkChangeRow = typeof linkChanges.$inferSelect

