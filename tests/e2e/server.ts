/**
 * The server the browser tests run against (playwright.config.ts starts it): the real app from
 * server/main.ts on a fresh data folder, plus the fixture accounts and records of accounts.ts,
 * written through the app's own database handle (PGlite allows one process only, so the tests
 * cannot open the database themselves). Builds the PWA first when dist/ is missing.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../server/config.ts'
import { serve } from '../../server/main.ts'
import { inArray } from 'drizzle-orm'
import { admins, brands, contactEnquiries, leads } from '../../server/db/schema.ts'
import { ENQUIRING_LEAD, SEEDED_BRAND, SEEDED_ENQUIRIES, SEEDED_LEADS, SUBSCRIBED_LEADS, accounts, leadEmail, leadName } from './accounts.ts'

// E2E_DIST: a build folder of its own (several builds side by side while working); default dist/.
const builtDir = process.env['E2E_DIST'] ?? 'dist'
if (!existsSync(join(builtDir, 'index.html'))) {
  const built = spawnSync('npx', ['vite', 'build', '--outDir', builtDir], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

const loaded = loadConfig()
// Serve a copy of the build: a `vite build` run elsewhere during the suite (the dev loop, the
// bench) empties dist/ and would pull the files from under the running tests.
const distDir = join(loaded.dataDir, 'dist')
cpSync(builtDir, distDir, { recursive: true })
// Cheap argon2 settings keep the many logins of the suite fast; the algorithm stays argon2id.
const config = { ...loaded, distDir, hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }
const app = await serve(config, { onSuperadminCreated: () => {} })
const { db } = app.services.handle
const hash = (password: string) => app.services.passwords.hash(password)

for (const account of [accounts.viewOnly, accounts.categoriesOnly, accounts.twoFactor]) {
  await db
    .insert(admins)
    .values({
      name: account.name,
      email: account.email,
      role: account.role,
      accessLevel: account.accessLevel,
      restrictions: [...account.restrictions],
      passwordHash: await hash(account.password),
      ...('totpSecret' in account ? { totpSecret: account.totpSecret, totpEnabled: true } : {}),
    })
    .onConflictDoNothing()
}

const now = Date.now()
await db.insert(leads).values(
  Array.from({ length: SEEDED_LEADS }, (_, i) => ({
    createdAt: new Date(now - (i + 1) * 60_000),
    name: leadName(i + 1),
    email: leadEmail(i + 1),
    operatingsystem: i % 2 === 0 ? 'Android' : 'ios',
    walletaddress: `0x${(i + 1).toString(16).padStart(40, 'a')}`,
    provider: i % 3 === 0 ? 'ipfs' : 'web3auth',
    // Every fourth lead in France, the next in Japan, the rest unknown (the Country filter's test).
    country: ['FR', 'JP', '', ''][i % 4] ?? '',
    // The newsletter's subscribers: the newest SUBSCRIBED_LEADS.
    subscribed: i < SUBSCRIBED_LEADS,
  })),
)
await db.insert(contactEnquiries).values(
  Array.from({ length: SEEDED_ENQUIRIES }, (_, i) => ({
    name: `Enquirer ${i + 1}`,
    email: i === 0 ? leadEmail(ENQUIRING_LEAD) : `enquirer${i + 1}@e2e.test`,
    phonenumber: `+100000000${i + 1}`,
    message: `Question number ${i + 1} about the wallet.`,
  })),
)
const [brand] = await db.insert(brands).values({ brandname: SEEDED_BRAND.brandname, type: SEEDED_BRAND.type }).returning({ id: brands.id })
await db
  .update(leads)
  .set({ brandId: brand?.id ?? null })
  .where(inArray(leads.email, SEEDED_BRAND.leads.map(leadEmail)))
console.log(`e2e server ready on port ${config.port}`)
