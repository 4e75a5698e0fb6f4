/**
 * Sample data for `npm run demo`, so that a newcomer sees every feature at work: believable leads
 * (more than the four-eyes threshold, with countries, some subscribed and one unsubscribed), contact
 * enquiries (most from leads, so a lead's page shows them; some resolved), categories and games
 * (one frozen) with images, restricted countries (one hidden), promotions with their deliveries,
 * a second Admin whose promotion to every lead awaits another Admin's approval, audit entries of
 * both admins, the site settings (name, logo, links, version), the social links, two pending
 * access requests, a few leads in restricted countries and three suppressed addresses (so a send's
 * forecast has people to leave out). Written only into an empty database (the demo's own data
 * folder), so a restart keeps edits.
 */
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq, sql } from 'drizzle-orm'
import { Passwords } from './kit/ground/access/auth.ts'
import type { Db } from './db/index.ts'
import { countryNamed } from './kit/rules/countries.ts'
import { accessRequests, admins, auditLog, brands, categories, contactEnquiries, games, homepageContent, leadNotifications, leads, links, promotionDeliveries, promotionRecipients, promotions, restrictedCountries, sendRequests, siteSettings, socialMedia, suppressedAddresses, tokenSettings } from './db/schema.ts'
import { gradientIcon, type Rgb } from './db/png.ts'
import { makeThumbnail, thumbOf } from './kit/ground/media.ts'
import { diskStorage, type ObjectStorage } from './kit/ground/storage.ts'
import { suppressionKey } from './kit/ground/suppression.ts'
import type { StoredChanges } from './kit/request/audit-changes.ts'

const FIRST = [
  'Olivia', 'Liam', 'Amara', 'Noah', 'Sofia', 'Mateo', 'Aisha', 'Lucas', 'Mei', 'Ethan', 'Priya', 'Diego',
  'Hana', 'Omar', 'Elena', 'Kwame', 'Yuki', 'Jonas', 'Fatima', 'Rafael', 'Ingrid', 'Tariq', 'Chloe', 'Arjun',
  'Nadia', 'Felix', 'Zara', 'Hugo', 'Leila', 'Samuel', 'Camila', 'Ravi', 'Astrid', 'Kofi', 'Lucia', 'Jin',
] as const
const LAST = [
  'Okafor', 'Silva', 'Nguyen', 'Schmidt', 'Patel', 'Kowalski', 'Haddad', 'Johansson', 'Moreau', 'Tanaka',
  'Rossi', 'Mensah', 'Garcia', 'Kim', 'Novak', 'Fischer', 'Reyes', 'Ahmed', 'Larsen', 'Costa', 'Ivanova',
  'Murphy', 'Chen', 'Dubois', 'Hoffmann', 'Alvarez', 'Osei', 'Yilmaz', 'Bianchi', 'Sato',
] as const
const DOMAINS = ['gmail.com', 'outlook.com', 'proton.me', 'yahoo.com', 'icloud.com', 'gmx.de', 'hey.com'] as const
const SYSTEMS = ['Android', 'Android', 'ios', 'ios', 'Windows', 'macOS', 'Linux'] as const

/** Demo games: `category` indexes CATEGORIES. */
const DEMO_GAMES: readonly { category: number; colours: readonly [Rgb, Rgb]; fields: { title: string; description: string; operatingsystem: 'Android' | 'ios' | 'both' | ''; liveLink: string; isGameBackend: boolean; freeze: boolean } }[] = [
  { category: 4, colours: [[234, 88, 12], [250, 204, 21]], fields: { title: 'Neon Drift', description: 'Street racing through a city that never sleeps.', operatingsystem: 'both', liveLink: 'https://games.wallet.example/neon-drift', isGameBackend: true, freeze: false } },
  { category: 2, colours: [[14, 165, 233], [45, 212, 191]], fields: { title: 'Block Cascade', description: 'Match falling blocks before the board fills up.', operatingsystem: 'Android', liveLink: 'https://games.wallet.example/block-cascade', isGameBackend: false, freeze: false } },
  { category: 1, colours: [[124, 58, 237], [236, 72, 153]], fields: { title: 'Pixel Invaders', description: 'A classic arcade shooter with token rewards.', operatingsystem: 'ios', liveLink: 'https://games.wallet.example/pixel-invaders', isGameBackend: true, freeze: true } },
  { category: 6, colours: [[136, 19, 55], [244, 63, 94]], fields: { title: 'Crypto Poker', description: 'Texas hold\'em tables with ticket buy-ins.', operatingsystem: 'both', liveLink: 'https://games.wallet.example/crypto-poker', isGameBackend: true, freeze: false } },
  { category: 7, colours: [[15, 118, 110], [163, 230, 53]], fields: { title: 'Lost Temple', description: 'Explore ruins and solve their riddles.', operatingsystem: '', liveLink: 'https://games.wallet.example/lost-temple', isGameBackend: false, freeze: false } },
]

const CATEGORIES: readonly { name: string; from: Rgb; to: Rgb }[] = [
  { name: 'Action', from: [220, 38, 38], to: [251, 146, 60] },
  { name: 'Arcade', from: [124, 58, 237], to: [236, 72, 153] },
  { name: 'Puzzle', from: [14, 165, 233], to: [45, 212, 191] },
  { name: 'Strategy', from: [22, 101, 52], to: [132, 204, 22] },
  { name: 'Racing', from: [234, 88, 12], to: [250, 204, 21] },
  { name: 'Sports', from: [29, 78, 216], to: [96, 165, 250] },
  { name: 'Card Games', from: [136, 19, 55], to: [244, 63, 94] },
  { name: 'Adventure', from: [15, 118, 110], to: [163, 230, 53] },
]

const ENQUIRIES = [
  'I cannot see my tokens after restoring my wallet from the recovery phrase.',
  'How do I change the email address linked to my account?',
  'The swap screen keeps loading and never shows a quote.',
  'Is there a fee for bridging tokens to another network?',
  'I would like to list our game on your platform. Who should I talk to?',
  'My withdrawal has been pending for two days, can you check it?',
  'The app crashes when I open the games tab on my phone.',
  'Do you support hardware wallets?',
  'Please delete my account and all my data.',
  'I was charged twice for the same purchase.',
  'Can I use the same wallet on my tablet and my phone?',
  'Your referral link did not credit my friend’s sign-up.',
]

/** A small seeded generator, so every demo database looks the same. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The demo superadmin's password unless ADMIN_PASSWORD says otherwise (printed on every start). */
export const DEMO_ADMIN_PASSWORD = 'Demo@1234'

/** How many leads the demo has: more than the default four-eyes threshold (1000), so a send to all of them waits for approval. */
export const DEMO_LEADS = 1200

/**
 * The demo's second Admin (not a superadmin): her promotion to every lead awaits another Admin's
 * approval, which the demo's superadmin gives or refuses; logging in as her shows the other side.
 */
export const DEMO_SECOND_ADMIN = { name: 'Ada Mensah', email: 'ada.mensah@wallet.example', password: 'Demo@1234' } as const

const ACCESS_REQUESTS = [
  { name: 'Tomás Okafor', email: 'tomas.okafor@wallet.example' },
  { name: 'Mei Lindqvist', email: 'mei.lindqvist@wallet.example' },
] as const

const DEMO_BRANDS = [
  { brandname: 'Lucky Arcade', type: 'web3auth' },
  { brandname: 'Pixel Quest', type: 'ipfs' },
  { brandname: 'Moon Racers', type: 'web3auth' },
] as const

const HOMEPAGE_BLOCKS: readonly { title: string; link: string; from: Rgb; to: Rgb }[] = [
  { title: 'Play games, win tokens', link: 'https://wallet.example/games', from: [124, 58, 237], to: [236, 72, 153] },
  { title: 'Swap in seconds', link: 'https://wallet.example/swap', from: [14, 165, 233], to: [45, 212, 191] },
  { title: 'Bridge to any network', link: 'https://wallet.example/bridge', from: [234, 88, 12], to: [250, 204, 21] },
]

/** Demo restricted countries as listCountry names them, and whether each is hidden. */
const DEMO_RESTRICTED: readonly (readonly [string, boolean])[] = [
  ['North Korea', false],
  ['Islamic Republic of Iran', false],
  ['Syrian Arab Republic', false],
  ['Cuba', false],
  ['Russian Federation', true],
]

/** Demo leads' countries (ISO 3166 alpha-2, as leads.country holds them), taken in turn; '' is unknown. */
const DEMO_LEAD_COUNTRIES = ['US', 'GB', 'DE', 'US', 'IN', 'BR', 'NG', 'FR', 'PT', 'US', 'JP', 'ES', 'CA', 'AE', 'GB', ''] as const

/**
 * Three promotions as the delivery worker leaves them (server/areas/promotions/delivery.ts): one sent to every
 * web3auth lead, with an image; one to the ipfs leads in the United States and Great Britain,
 * cancelled part way; one to five checked leads without an image. Each delivered recipient has its
 * notification, as the database transport stores it.
 */
async function seedPromotions(db: Db, store: StorePng, now: number, authors: readonly string[]): Promise<void> {
  const image = await store(gradientIcon(256, [37, 99, 235], [16, 185, 129]), false)
  const HOUR = 3600 * 1000
  const plans = [
    { title: 'Weekend tournament', content: 'Join the Neon Drift tournament this weekend: the top ten win 50 game tickets each.', image, selectall: true, where: sql`${leads.provider} = 'web3auth'`, sendUpTo: Infinity, at: now - 30 * HOUR },
    { title: 'Ticket bonus', content: 'Buy 10 tickets and get 2 more free until Sunday.', image: '', selectall: true, where: sql`${leads.provider} = 'ipfs' and ${leads.country} in ('US', 'GB')`, sendUpTo: 40, at: now - 6 * HOUR },
    { title: 'Welcome back', content: 'We missed you: here are 5 free tickets to try the new games.', image: '', selectall: false, where: sql`${leads.id} in (select ${leads.id} from ${leads} order by ${leads.createdAt} desc, ${leads.id} desc limit 5)`, sendUpTo: Infinity, at: now - 2 * HOUR },
  ]
  for (const [n, plan] of plans.entries()) {
    const recipients = await db.select({ id: leads.id, email: leads.email }).from(leads).where(plan.where).orderBy(leads.email)
    const sent = recipients.slice(0, Math.min(recipients.length, plan.sendUpTo))
    const cancelled = sent.length < recipients.length
    const at = new Date(plan.at)
    const lastSentAt = new Date(plan.at + 90 * 1000)
    const [row] = await db
      .insert(promotions)
      .values({
        title: plan.title,
        content: plan.content,
        image: plan.image,
        selectall: plan.selectall,
        createdAt: at,
        createdBy: authors[n] ?? null,
        status: cancelled ? 'cancelled' : 'done',
        recipientCount: recipients.length,
        total: recipients.length,
        sent: sent.length,
        lastSentAt,
        ...(cancelled ? { cancelledAt: new Date(plan.at + 120 * 1000) } : {}),
      })
      .returning({ id: promotions.id })
    if (row === undefined) throw new Error('promotion insert returned no row')
    const sentIds = new Set(sent.map((r) => r.id))
    for (let i = 0; i < recipients.length; i += 200) {
      const slice = recipients.slice(i, i + 200)
      await db.insert(promotionRecipients).values(slice.map((r) => ({ promotionId: row.id, leadId: r.id, email: r.email })))
      await db.insert(promotionDeliveries).values(
        slice.map((r) =>
          sentIds.has(r.id)
            ? { promotionId: row.id, leadId: r.id, round: 1, status: 'sent' as const, attempts: 1, sentAt: lastSentAt, batchId: `0:demo-${row.id}` }
            : { promotionId: row.id, leadId: r.id, round: 1, status: 'cancelled' as const },
        ),
      )
    }
    for (let i = 0; i < sent.length; i += 200) {
      await db.insert(leadNotifications).values(
        sent.slice(i, i + 200).map((r) => ({ leadId: r.id, promotionId: row.id, round: 1, title: plan.title, content: plan.content, image: plan.image, createdAt: lastSentAt })),
      )
    }
  }
}

/**
 * Ada's promotion to every lead, waiting for approval as Submit leaves one above the threshold
 * (server/areas/promotions/routes.ts): its recipients and round 1's deliveries stored, nothing
 * sent, her request counted in the four-eyes window.
 */
async function seedAwaitingPromotion(db: Db, adminId: string, now: number): Promise<string> {
  const at = new Date(now - 20 * 60 * 1000)
  const recipients = await db.select({ id: leads.id, email: leads.email }).from(leads).orderBy(leads.email)
  const [row] = await db
    .insert(promotions)
    .values({
      title: 'Double tickets weekend',
      content: 'This weekend only: every ticket you buy counts twice in the Neon Drift tournament.',
      image: '',
      selectall: true,
      createdAt: at,
      createdBy: adminId,
      status: 'awaiting',
      recipientCount: recipients.length,
      total: recipients.length,
      approvalRequestedBy: adminId,
    })
    .returning({ id: promotions.id })
  if (row === undefined) throw new Error('promotion insert returned no row')
  for (let i = 0; i < recipients.length; i += 200) {
    const slice = recipients.slice(i, i + 200)
    await db.insert(promotionRecipients).values(slice.map((r) => ({ promotionId: row.id, leadId: r.id, email: r.email })))
    await db.insert(promotionDeliveries).values(slice.map((r) => ({ promotionId: row.id, leadId: r.id, round: 1 })))
  }
  await db.insert(sendRequests).values({ adminId, recipients: recipients.length, ref: `promotion:${row.id}:1`, at })
  return row.id
}

/**
 * What the start prints about logging in. The demo's logins are printed on every start, SMTP_URL
 * set or not (set, mails really go out, and the note about the log is left out).
 */
export function loginLines(o: { demo: boolean; secondAdmin: boolean; adminEmail: string; adminPassword: string | null; mailToLog: boolean }): string[] {
  if (!o.demo) return [`Log in with ${o.adminEmail} and the password you set (ADMIN_PASSWORD) or the one printed on the first start.`]
  return [
    `Log in with ${o.adminEmail} / ${o.adminPassword ?? DEMO_ADMIN_PASSWORD}`,
    ...(o.secondAdmin ? [`A second Admin, whose promotion awaits approval: ${DEMO_SECOND_ADMIN.email} / ${DEMO_SECOND_ADMIN.password}`] : []),
    ...(o.mailToLog ? ['Mail: no SMTP_URL, so mails (OTP codes included) are printed to this log instead of sent (MAIL_LOG_BODIES=1).'] : []),
  ]
}

export interface DemoCounts {
  leads: number
  enquiries: number
  categories: number
  accessRequests: number
}

/** Stores a generated PNG (and its thumbnail when asked) as an upload would be; answers its stored name. */
type StorePng = (png: Buffer, thumbnail: boolean) => Promise<string>

/**
 * Seeds the demo data unless the database already has leads; returns what it wrote (or null).
 * Images go to `uploads`: the server's storage (server/kit/ground/storage.ts), or a folder.
 */
export async function seedDemo(db: Db, uploads: ObjectStorage | string, now = Date.now(), passwords = new Passwords(null)): Promise<DemoCounts | null> {
  const [existing] = await db.select({ n: count() }).from(leads)
  if ((existing?.n ?? 0) > 0) return null
  const storage = typeof uploads === 'string' ? diskStorage(uploads) : uploads
  const staging = await mkdtemp(join(tmpdir(), 'bo-demo-images-'))
  try {
    return await seed(db, staging, storage, now, passwords)
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function seed(db: Db, staging: string, storage: ObjectStorage, now: number, passwords: Passwords): Promise<DemoCounts> {
  const store: StorePng = async (png, thumbnail) => {
    const name = `${randomUUID()}.png`
    const path = join(staging, name)
    await writeFile(path, png)
    if (thumbnail) {
      await makeThumbnail(path, thumbOf(path), 1_000_000)
      await storage.putFile(thumbOf(name), thumbOf(path))
    }
    await storage.putFile(name, path)
    return name
  }
  const rand = random(20250101)
  const pick = <T>(list: readonly T[]): T => {
    const value = list[Math.floor(rand() * list.length)]
    if (value === undefined) throw new Error('pick from an empty list')
    return value
  }
  const hex = (length: number): string => Array.from({ length }, () => Math.floor(rand() * 16).toString(16)).join('')
  const YEAR = 365 * 24 * 3600 * 1000

  // Brands with referral links: every fifth lead arrived through one (View Brand lists them).
  const brandRows = await db
    .insert(brands)
    .values(DEMO_BRANDS.map((b, i) => ({ ...b, visits: 40 + i * 17, createdAt: new Date(now - (i + 1) * 24 * 3600 * 1000) })))
    .returning({ id: brands.id })
  const brandOf = (i: number): string | null => (i % 5 === 0 ? (brandRows[(i / 5) % brandRows.length]?.id ?? null) : null)

  const leadRows = Array.from({ length: DEMO_LEADS }, (_, i) => {
    const first = pick(FIRST)
    const last = pick(LAST)
    const style = i % 4
    const local =
      style === 0 ? `${first}.${last}` : style === 1 ? `${first}${last[0]}${10 + (i % 89)}` : style === 2 ? `${first[0]}${last}` : `${first}_${last}${i % 7}`
    return {
      createdAt: new Date(now - Math.floor(rand() * YEAR)),
      name: `${first} ${last}`,
      email: `${local.toLowerCase()}@${pick(DOMAINS)}`,
      operatingsystem: pick(SYSTEMS),
      walletaddress: `0x${hex(40)}`,
      provider: rand() < 0.55 ? 'web3auth' : 'ipfs',
      brandId: brandOf(i),
      // The newsletter: about a third of the leads subscribed (by position, so the other demo data stays as it was).
      ...(i % 3 === 0 ? { subscribed: true } : {}),
      // Promotions filter by country: by position too, a few leads with none known.
      country: DEMO_LEAD_COUNTRIES[i % DEMO_LEAD_COUNTRIES.length] ?? '',
    }
  })
  for (let i = 0; i < leadRows.length; i += 200) await db.insert(leads).values(leadRows.slice(i, i + 200))
  // Subscribed when they signed up.
  await db.update(leads).set({ subscribedAt: sql`${leads.createdAt}` }).where(eq(leads.subscribed, true))
  // One lead left the newsletter (as its mails' unsubscribe link does): the newsletter skips them.
  const unsubscribed = leadRows[3]
  if (unsubscribed !== undefined) {
    await db
      .update(leads)
      .set({ subscribed: false, subscribedAt: unsubscribed.createdAt, unsubscribedAt: new Date(now - 2 * 24 * 3600 * 1000) })
      .where(eq(leads.email, unsubscribed.email))
  }

  // A few leads in restricted countries (Iran and Cuba, enforced; Russia, hidden so not enforced),
  // so a send's forecast shows who the Restriction List leaves out and who it does not.
  for (const [i, code] of [[7, 'IR'], [211, 'CU'], [415, 'IR'], [619, 'RU']] as const) {
    const lead = leadRows[i]
    if (lead !== undefined) await db.update(leads).set({ country: code }).where(eq(leads.email, lead.email))
  }

  // Most enquiries come from leads (by email, as a lead's page finds them), a lead now and then
  // writing twice; the rest from people who are not leads. About a third are answered.
  const enquiryRows = Array.from({ length: 40 }, (_, i) => {
    const lead = i % 4 === 3 ? undefined : leadRows[(i * 37) % 120]
    const first = pick(FIRST)
    const last = pick(LAST)
    return {
      createdAt: new Date(now - Math.floor(rand() * YEAR * 0.5)),
      name: lead?.name ?? `${first} ${last}`,
      email: lead?.email ?? `${first}.${last}@${pick(DOMAINS)}`.toLowerCase(),
      phonenumber: `+${pick(['1', '44', '49', '33', '91', '234', '81'])} ${String(200 + Math.floor(rand() * 700))} ${String(1000000 + Math.floor(rand() * 8999999))}`,
      message: ENQUIRIES[i % ENQUIRIES.length] ?? '',
      status: i % 3 === 2 ? ('Resolved' as const) : ('Open' as const),
    }
  })
  await db.insert(contactEnquiries).values(enquiryRows)

  const categoryRows = []
  for (const [i, c] of CATEGORIES.entries()) {
    const image = await store(gradientIcon(96, c.from, c.to), true)
    categoryRows.push({ categoryName: c.name, image, preference: i + 1 })
  }
  const categoryIds = await db.insert(categories).values(categoryRows).returning({ id: categories.id })
  // Games, two images each (with the thumbnails an upload would get), ordered 1..n.
  for (const [i, game] of DEMO_GAMES.entries()) {
    const images: string[] = []
    for (const colours of [game.colours, [game.colours[1], game.colours[0]] as const]) {
      images.push(await store(gradientIcon(480, colours[0], colours[1]), true))
    }
    const categoryId = categoryIds[game.category]?.id
    if (categoryId === undefined) throw new Error(`no demo category ${game.category}`)
    await db.insert(games).values({ ...game.fields, categoryId, images, preference: i + 1, createdAt: new Date(now - (i + 1) * 3600 * 1000) })
  }

  const sitelogo = await store(gradientIcon(128, [37, 99, 235], [16, 185, 129]), false)
  await db.insert(siteSettings).values({
    version: '2.4.1',
    contactPerson: 'Ada Mensah',
    email: 'support@wallet.example',
    sitename: 'Wallet Back Office',
    siteDescription: 'A crypto wallet with games, swaps and bridges in one app.',
    phoneNumber: '+44 20 7946 0958',
    mobileNumber: '+44 7700 900123',
    address: '1 Harbour Street, London',
    socialLink1: 'https://x.com/wallet',
    socialLink2: 'https://medium.com/@wallet',
    socialLink3: 'https://t.me/wallet',
    socialLink4: 'https://www.facebook.com/wallet',
    socialLink5: 'https://www.linkedin.com/company/wallet',
    regCode: 'GB-12345678',
    companyInfoLink: 'https://wallet.example/company',
    licenseInfoLink: 'https://wallet.example/license',
    copyrightText: '© 2026 Wallet Ltd. All rights reserved.',
    sitelogo,
    homepageCmsVisible: true,
  })
  await db.insert(socialMedia).values({
    discordLink: 'https://discord.gg/wallet',
    facebookLink: 'https://www.facebook.com/wallet',
    twitterLink: 'https://x.com/wallet',
    instagramLink: 'https://www.instagram.com/wallet',
    telegramLink: 'https://t.me/wallet',
  })
  // Three landing-page blocks with their images, shown on the landing page, and the token record.
  for (const [i, block] of HOMEPAGE_BLOCKS.entries()) {
    const image = await store(gradientIcon(160, block.from, block.to), true)
    await db.insert(homepageContent).values({ title: block.title, link: block.link, image, createdAt: new Date(now - (i + 1) * 3600 * 1000) })
  }
  // Buy, swap-out and swap-in links, each list in its display order 1..n.
  const linkUrls = {
    buy: ['https://buy.moonpay.example/wallet', 'https://www.transak.example/buy', 'https://ramp.example/buy-crypto'],
    sell: ['https://sell.moonpay.example/wallet', 'https://www.transak.example/sell'],
    bridge: ['https://bridge.portal.example/swap', 'https://www.hop.example/bridge', 'https://stargate.example/transfer'],
  } as const
  await db.insert(links).values((['buy', 'sell', 'bridge'] as const).flatMap((kind) => linkUrls[kind].map((url, i) => ({ kind, url, preference: i + 1 }))))
  await db.insert(tokenSettings).values({ tokenName: 'Game Ticket', price: '0.25', currency: 'USD', productId: 'com.wallet.ticket', ticketCount: 100 })
  // A few restricted countries, one of them hidden (listed, no longer enforced by the apps).
  await db.insert(restrictedCountries).values(
    DEMO_RESTRICTED.map(([name, hide]) => {
      const country = countryNamed(name)
      if (country === undefined) throw new Error(`${name} is not in the country list`)
      return { code: country.code, country: country.name, hide }
    }),
  )
  // The second Admin; the promotions sent so far are the superadmin's (when the start made one
  // first) and hers.
  const [ada] = await db
    .insert(admins)
    .values({ name: DEMO_SECOND_ADMIN.name, email: DEMO_SECOND_ADMIN.email, passwordHash: await passwords.hash(DEMO_SECOND_ADMIN.password), role: 'subadmin', accessLevel: 'Admin', restrictions: [], createdAt: new Date(now - 60 * 24 * 3600 * 1000) })
    .returning({ id: admins.id })
  if (ada === undefined) throw new Error('admin insert returned no row')
  const [superadmin] = await db.select({ id: admins.id }).from(admins).where(eq(admins.role, 'superadmin')).limit(1)
  await seedPromotions(db, store, now, [superadmin?.id ?? ada.id, ada.id, superadmin?.id ?? ada.id])

  // Her promotion awaiting approval, and audit entries of hers and (when the start made one first)
  // the superadmin's, so the audit log shows more than one admin at work.
  const awaiting = await seedAwaitingPromotion(db, ada.id, now)
  const [frozen] = await db.select({ id: games.id }).from(games).where(eq(games.freeze, true)).limit(1)
  const [hidden] = await db.select({ id: restrictedCountries.id }).from(restrictedCountries).where(eq(restrictedCountries.hide, true)).limit(1)
  const [buy] = await db.select({ id: links.id, url: links.url }).from(links).where(eq(links.kind, 'buy')).orderBy(links.preference).limit(1)
  const changed = (table: string, record: string, fields: StoredChanges['rows'][number]['fields']): StoredChanges => ({ rows: [{ table, record, op: 'update', fields }], partial: false })
  const MINUTE = 60 * 1000
  await db.insert(auditLog).values([
    { at: new Date(now - 3 * 24 * 60 * MINUTE), adminId: ada.id, action: '/login', recordId: ada.id, ip: '203.0.113.24' },
    ...(frozen === undefined
      ? []
      : [{ at: new Date(now - 3 * 24 * 60 * MINUTE + 5 * MINUTE), adminId: ada.id, action: '/FreezeCms', recordId: frozen.id, ip: '203.0.113.24', changes: changed('games', frozen.id, [{ field: 'freeze', before: false, after: true }]) }]),
    // Her edit of a buy link, field by field as every write keeps it: the Audit Log shows the diff.
    ...(buy === undefined
      ? []
      : [{ at: new Date(now - 2 * 24 * 60 * MINUTE), adminId: ada.id, action: '/editBuylink', recordId: buy.id, ip: '203.0.113.24', changes: changed('links', buy.id, [{ field: 'url', before: 'https://buy.moonpay.example/app', after: buy.url }]) }]),
    { at: new Date(now - 21 * MINUTE), adminId: ada.id, action: '/login', recordId: ada.id, ip: '203.0.113.24' },
    { at: new Date(now - 20 * MINUTE), adminId: ada.id, action: '/addNotification', recordId: awaiting, ip: '203.0.113.24', detail: `Awaiting approval: ${leadRows.length} recipients, more than 1000` },
    ...(superadmin === undefined || hidden === undefined
      ? []
      : [{ at: new Date(now - 26 * 60 * MINUTE), adminId: superadmin.id, action: '/HideRestrictions', recordId: hidden.id, ip: '198.51.100.7', changes: changed('restricted_countries', hidden.id, [{ field: 'hide', before: false, after: true }]) }]),
  ])

  // Addresses the mail provider reported (a bounce, a complaint) and one Ada added by hand: the
  // Suppressed addresses screen has rows, and a send's forecast leaves these leads out.
  const suppressed = [
    { lead: leadRows[12], reason: 'bounce' as const, source: 'Mail provider event', by: null, days: 9 },
    { lead: leadRows[30], reason: 'complaint' as const, source: 'Mail provider event', by: null, days: 4 },
    { lead: leadRows[66], reason: 'manual' as const, source: 'Asked not to be mailed', by: ada.id, days: 1 },
  ]
  for (const entry of suppressed) {
    if (entry.lead === undefined) continue
    await db.insert(suppressedAddresses).values({ address: suppressionKey(entry.lead.email), reason: entry.reason, source: entry.source, createdBy: entry.by, createdAt: new Date(now - entry.days * 24 * 3600 * 1000) })
  }

  for (const [i, request] of ACCESS_REQUESTS.entries()) {
    // Confirmed from their mailboxes, as only those reach the staff list.
    const createdAt = new Date(now - (i + 1) * 3 * 3600 * 1000)
    await db.insert(accessRequests).values({ ...request, createdAt, confirmedAt: new Date(createdAt.getTime() + 5 * 60 * 1000) })
  }
  return { leads: leadRows.length, enquiries: enquiryRows.length, categories: categoryRows.length, accessRequests: ACCESS_REQUESTS.length }
}
