/**
 * Stored XSS across every stored text field of every area, not only rich
 * text. The fields come from the contract: every write the server serves that has a working
 * sample (its area's samples.ts, collected by server/testing/endpoint-samples.ts) is sent again with each of its free-text string
 * fields (per its zod input's JSON Schema: no ids, enums, passwords or codes) set to an XSS
 * vector from xss-vectors.ts, adapted when the field's pattern asks for a URL or an email; a new
 * area is covered as soon as it has a sample. Leads and contact enquiries come from the platform,
 * so they are written straight into the database with a vector in every text column.
 *
 * The browser then opens every list screen (50 rows a page), every row's View modal or page and
 * Edit form or page, and the single-record and account screens, as the superadmin. Throughout:
 * no dialog opens, no request leaves for another host (each is recorded and aborted), and
 * `window.__xss`, which every vector's script would set (or its markup clobber), stays undefined.
 *
 * It runs its own server (the real app, listening on a free port, on a fresh in-memory database):
 * the vectors would otherwise land in the shared e2e server's single-record screens and lists that
 * other specs read.
 */
import { cpSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { getTableColumns, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import { screens } from '../../contract/routes.ts'
import type { Endpoint } from '../../contract/define.ts'
import { accessRequests, contactEnquiries, leads, suppressedAddresses } from '../../server/db/schema.ts'
import { isServed, makeFixtures, samples, send, type Payload } from '../../server/testing/endpoint-samples.ts'
import { inputSchema, type JsonSchema } from '../../server/testing/fuzz-inputs.ts'
import { makeTestApp, type TestApp } from '../../server/testing/test-app.ts'
import { XSS_HOST, XSS_VECTORS } from './xss-vectors.ts'

test.describe.configure({ mode: 'serial' })

/** Records each add call creates per area: enough rows that every vector lands somewhere, few enough to open each one. */
const ROUNDS = 4
/** Rows of platform data (leads, contact enquiries) written straight into the database. */
const PLATFORM_ROWS = 10

let t: TestApp
let base = ''
/** Vector names stored per field (`endpoint.field` or `table.column`), read back from the database. */
const storedByField = new Map<string, Set<string>>()
const attemptedFields = new Set<string>()

/** Keys that name records, secrets or codes rather than text someone types to be shown again. */
const NOT_TEXT = /^(_?id|.*Id|.*_id|password|oldPassword|newPassword|confirmPassword|otp|code|twoFACode)$/

/**
 * The free-text string fields of an endpoint: its input schema's string properties (the sample's
 * value, when it has one, must be a string too), without ids, enums, passwords or codes.
 */
function textFields(e: Endpoint, sample: Payload): { key: string; schema: JsonSchema }[] {
  const properties = inputSchema(e).properties ?? {}
  const values: Record<string, unknown> = 'json' in sample ? sample.json : sample.form.fields
  return Object.entries(properties)
    .filter(([key, schema]) => !NOT_TEXT.test(key) && (values[key] === undefined || typeof values[key] === 'string') && schema.type === 'string' && schema.enum === undefined && !('const' in schema))
    .map(([key, schema]) => ({ key, schema }))
}

/** The same vector written to pass a field's pattern: as is, spaces as slashes, inside a URL, as an email's local part. */
function forms(vector: string): string[] {
  const compact = vector.replace(/\s+/g, '/')
  return [vector, compact, `https://a.example/${compact}`, `www.a.example/${compact}`, `${compact.replace(/@/g, '')}@a.example`]
}

/** The vectors a text column can hold: PostgreSQL text takes no NUL character, so those are refused before they are stored. */
const STORABLE = XSS_VECTORS.filter((v) => !v.html.includes('\u0000'))

let cursor = 0
/** The next vector whose adapted forms fit the field's length. */
function nextVector(maxLength: number): { name: string; text: string } {
  for (let tries = 0; tries < STORABLE.length; tries++) {
    const vector = STORABLE[cursor % STORABLE.length]
    cursor += 1
    if (vector !== undefined && forms(vector.html).every((f) => f.length <= maxLength)) return { name: vector.name, text: vector.html }
  }
  return { name: 'short', text: '<b onmouseover=window.__xss=1>' }
}

const Answer = z.object({ status: z.string(), errors: z.record(z.string(), z.string()).optional() })

/** Stores vectors through one endpoint: ROUNDS calls, each trying the adapted forms a refused field asks for. */
async function storeThrough(e: Endpoint, fixtures: Awaited<ReturnType<typeof makeFixtures>>): Promise<void> {
  const sampleOf = samples[e.name]
  if (sampleOf === undefined) return
  for (let round = 0; round < ROUNDS; round++) {
    const sample = sampleOf(fixtures)
    const fields = textFields(e, sample)
    if (fields.length === 0) return
    const chosen = fields.map((f) => ({ ...f, vector: nextVector(f.schema.maxLength ?? 10_000), form: 0 }))
    for (const f of chosen) attemptedFields.add(`${e.name}.${f.key}`)
    const original: Record<string, unknown> = 'json' in sample ? sample.json : sample.form.fields
    for (let attempt = 0; attempt < 8; attempt++) {
      // A field that refused every form of its vector keeps the sample's value, so the others still get stored.
      const filled: Record<string, string> = {}
      for (const f of chosen) {
        const text = forms(f.vector.text)[f.form]
        const kept = original[f.key]
        filled[f.key] = text ?? (typeof kept === 'string' ? kept : '')
      }
      const payload: Payload = 'json' in sample ? { json: { ...sample.json, ...filled } } : { form: { fields: { ...sample.form.fields, ...filled }, files: sample.form.files } }
      const res = await send(t, e, await t.auth(t.superadmin), payload)
      const answer = Answer.safeParse(res.json())
      if (res.statusCode === 200 && answer.success && answer.data.status === 'success') break
      const errors = answer.success ? (answer.data.errors ?? {}) : {}
      const refusedFields = chosen.filter((f) => f.key in errors && f.form < forms(f.vector.text).length)
      // Refused for something other than the vectors (a taken name, an id gone): try the next round.
      if (refusedFields.length === 0) break
      for (const f of refusedFields) f.form += 1
    }
  }
}

/** Which vectors are in the database, per field: each table's text read back as JSON. */
async function readBackStored(): Promise<void> {
  const Rows = z.object({ rows: z.array(z.object({ t: z.string(), j: z.record(z.string(), z.unknown()) })) })
  const tables = z
    .object({ rows: z.array(z.object({ tablename: z.string() })) })
    .parse(await t.handle.db.execute(sql.raw(`select tablename from pg_tables where schemaname = 'public'`)))
    .rows.map((r) => r.tablename)
  for (const table of tables) {
    const rows = Rows.parse(await t.handle.db.execute(sql.raw(`select '${table}' as t, to_jsonb(x) as j from "${table}" x`))).rows
    for (const row of rows) {
      for (const [column, value] of Object.entries(row.j)) {
        if (typeof value !== 'string') continue
        for (const vector of STORABLE) {
          if (value.includes(vector.html) || forms(vector.html).some((f) => value.includes(f))) {
            const key = `${table}.${column}`
            storedByField.set(key, (storedByField.get(key) ?? new Set()).add(vector.name))
          }
        }
      }
    }
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const built = resolve(process.env['E2E_DIST'] ?? 'dist')
  if (!existsSync(join(built, 'index.html'))) throw new Error(`no build in ${built}: run vite build first (npm test does)`)
  // A copy, as tests/e2e/server.ts makes: a build elsewhere during the run must not empty it.
  const distDir = join(mkdtempSync(join(tmpdir(), 'bo-xss-dist-')), 'dist')
  cpSync(built, distDir, { recursive: true })
  t = await makeTestApp({ realtime: true, configure: (c) => ({ ...c, distDir }) })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the server has no port')
  base = `http://127.0.0.1:${address.port}`

  const fixtures = await makeFixtures(t)
  // Writes by the superadmin through the API, in contract order; its own name last but one (editProfile
  // is in the header of every screen), so the account screens show a vector too.
  // A CSV export stores nothing (and answers no JSON), even when posted.
  for (const e of t.app.services.contract.endpoints.filter((x) => x.method === 'POST' && x.answer !== 'csv' && isServed(t, x))) await storeThrough(e, fixtures)
  // Staff see an access request only once its address is confirmed (from a mail this run has no
  // reader for): confirmed here, so the names stored through /register are shown and checked.
  await t.handle.db.update(accessRequests).set({ confirmedAt: new Date() }).where(isNull(accessRequests.confirmedAt))

  // Platform-owned rows: a vector in every text column but the keys.
  for (const table of [leads, contactEnquiries]) {
    const columns = Object.entries(getTableColumns(table)).filter(([key, c]) => c.dataType === 'string' && key !== 'id' && !key.endsWith('Id'))
    const rows = Array.from({ length: PLATFORM_ROWS }, () => Object.fromEntries(columns.map(([key]) => [key, nextVector(10_000).text])))
    await t.handle.db.insert(table).values(rows)
  }
  // The mail provider's event ids are its text too: the suppressed addresses show them as the source.
  await t.handle.db
    .insert(suppressedAddresses)
    .values(Array.from({ length: PLATFORM_ROWS }, (_, i) => ({ address: `provider-${i}@a.example`, reason: 'bounce' as const, source: nextVector(10_000).text })))
  await readBackStored()
})

test.afterAll(async () => {
  await t.close()
})

/** A signed-in superadmin page that records dialogs and requests to any other host. */
async function watchedPage(page: Page): Promise<{ dialogs: string[]; foreign: string[] }> {
  const dialogs: string[] = []
  const foreign: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  await page.context().route(
    (url) => url.origin !== base,
    (route) => {
      foreign.push(route.request().url())
      return route.abort()
    },
  )
  const token = await t.tokenFor(t.superadmin)
  await page.goto(`${base}/admin/data-deletion`)
  await page.evaluate((value) => localStorage.setItem('admin_token', `Bearer ${value}`), token)
  return { dialogs, foreign }
}

/** Whether any vector's script ran (or its markup defined the marker). */
const xssRan = (page: Page): Promise<string> => page.evaluate(() => typeof Reflect.get(window, '__xss'))

/** Lets a screen load what it fetches (capped: the socket keeps a connection open). */
async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
}

/** Rows opened per list: the newest, which hold the vectors (each add ran ROUNDS times; PLATFORM_ROWS leads). */
const ROWS_OPENED = Math.max(ROUNDS, PLATFORM_ROWS)

/** Opens each row's View or Edit (a modal, or a page to come back from) and checks the marker there. */
async function openRows(page: Page, url: string, label: 'View' | 'Edit'): Promise<number> {
  const buttons = page.locator(`main button[aria-label^="${label} "]`)
  const count = Math.min(await buttons.count(), ROWS_OPENED)
  for (let i = 0; i < count; i++) {
    const button = buttons.nth(i)
    if (!(await button.isEnabled())) continue
    await button.click()
    // A modal opens (a confirmation, such as View as <name>, is an alert dialog) or the route
    // changes; then the fields render and images fail (onerror) in a moment.
    const opened = page.locator('[role="dialog"], [role="alertdialog"]').first()
    await Promise.race([opened.waitFor({ timeout: 3_000 }), page.waitForURL((u) => u.href !== url, { timeout: 3_000 })]).catch(() => undefined)
    await loaded(page)
    await page.waitForTimeout(200)
    expect.soft(await xssRan(page), `${label} #${i} of ${url}`).toBe('undefined')
    if (page.url() !== url) {
      // Back through the app's own history: no reload of the whole app per row.
      await page.goBack()
      await page.waitForURL(url).catch(() => page.goto(url))
      await loaded(page)
    } else {
      await page.keyboard.press('Escape')
      await expect(page.locator('[role="dialog"], [role="alertdialog"]')).toHaveCount(0)
    }
  }
  return count
}

/** Per screen: rows opened, and how many stored vectors its page showed as text. */
const visited = new Map<string, { views: number; edits: number; shown: number }>()
const VECTOR_MARKS = ['__xss', XSS_HOST]

/** The screens a person reaches from the menu and the account menu (children open from their rows). */
const topScreens = screens.filter((s) => !('parent' in s)).map((s) => s.path)

for (const path of topScreens) {
  test(`${path}: lists, View and Edit run no stored vector`, async ({ page }) => {
    test.setTimeout(180_000)
    const { dialogs, foreign } = await watchedPage(page)
    const url = `${base}/admin${path}?limit=50`
    await page.goto(url)
    await loaded(page)
    await expect(page.locator('main')).toBeVisible()
    expect.soft(await xssRan(page), path).toBe('undefined')
    // The vectors are on the page as text (a list cell, a field value): the test saw them, inert.
    const text = (await page.locator('main').innerText()) + (await page.locator('main input, main textarea').evaluateAll((els) => els.map((el) => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : '')).join(' ')))
    const shown = VECTOR_MARKS.reduce((n, mark) => n + text.split(mark).length - 1, 0)
    const here = page.url()
    const views = await openRows(page, here, 'View')
    const edits = await openRows(page, here, 'Edit')
    visited.set(path, { views, edits, shown })
    expect.soft(await xssRan(page), path).toBe('undefined')
    expect.soft(dialogs, `dialogs on ${path}`).toEqual([])
    expect.soft(foreign, `requests to another host from ${path}`).toEqual([])
  })
}

test('stores vectors in every free-text field the contract takes, and in the platform rows', () => {
  const fields = [...storedByField.keys()].sort()
  const vectors = new Set([...storedByField.values()].flatMap((s) => [...s]))
  const columnsOf = (field: string): string => field.split('.')[1] ?? field
  const untaken = [...attemptedFields].filter((f) => ![...storedByField.keys()].some((k) => k.endsWith(`.${columnsOf(f)}`) || k.split('.')[1]?.replace(/_/g, '') === columnsOf(f).toLowerCase()))
  console.log(
    `stored XSS: ${STORABLE.length} storable vectors (of ${XSS_VECTORS.length}), ${vectors.size} stored in ${fields.length} columns; ${attemptedFields.size} API fields tried\n  stored: ${fields.map((f) => `${f} (${storedByField.get(f)?.size ?? 0})`).join(', ')}\n  refused every vector (a pattern, or not stored): ${untaken.join(', ')}`,
  )
  console.log(`  screens (rows viewed / edited / vector marks shown as text): ${[...visited].map(([p, v]) => `${p} ${v.views}/${v.edits}/${v.shown}`).join(', ')}`)
  expect(vectors.size).toBeGreaterThanOrEqual(Math.min(30, STORABLE.length))
  // Not a vacuous pass: most screens showed stored vectors as text and opened rows.
  expect([...visited.values()].filter((v) => v.shown > 0).length).toBeGreaterThanOrEqual(10)
  expect([...visited.values()].reduce((n, v) => n + v.views + v.edits, 0)).toBeGreaterThanOrEqual(50)
  // The areas the issue names, each with at least one column holding a vector.
  for (const column of ['categories.category_name', 'links.url', 'brands.brandname', 'homepage_content.title', 'homepage_content.link', 'games.title', 'site_settings.version', 'token_settings.token_name', 'social_media.discord_link', 'admins.name', 'access_requests.name', 'leads.name', 'contact_enquiries.message']) {
    expect([...storedByField.keys()], column).toContain(column)
  }
})
