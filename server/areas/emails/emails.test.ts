import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { auditLog, emailTemplates, emailTemplateVersions, type AdminRow } from '../../db/schema.ts'
import { DEFAULT_TEMPLATES } from '../../kit/ground/mail/templates.ts'
import { startSmtpReceiver, otpFrom, type ReceivedMail, type SmtpReceiver } from '../../testing/smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { XSS_VECTORS } from '../../../tests/e2e/xss-vectors.ts'
import { testMailSent } from '../../kit/rules/mail/test-mail.ts'
import { IDENTIFIER_FIXED, TEMPLATE_UPDATED, UNKNOWN_IDENTIFIER, VERSION_RESTORED } from './routes.ts'

let t: TestApp
let smtp: SmtpReceiver
let editor: AdminRow
let viewOnly: AdminRow
/** Template ids by identifier. */
const ids: Record<string, string> = {}

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url } })
  editor = await t.createAdmin({ name: 'Edith Editor', accessLevel: 'Admin', restrictions: ['/emailtemplates'] })
  viewOnly = await t.createAdmin({ name: 'Vic Viewer', accessLevel: 'View Only', restrictions: ['/emailtemplates'] })
  for (const row of await t.handle.db.select().from(emailTemplates)) ids[row.identifier] = row.id
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
// Every test starts from the installed templates, without versions.
beforeEach(async () => {
  await t.handle.db.delete(emailTemplateVersions)
  for (const [identifier, text] of Object.entries(DEFAULT_TEMPLATES)) {
    await t.handle.db
      .update(emailTemplates)
      .set({ ...text, status: 'active', updatedBy: null, updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(emailTemplates.identifier, identifier))
  }
})

let address = 0
const nextAddress = (): string => `10.8.${Math.floor(++address / 250) % 250}.${address % 250}`
const post = async (path: string, payload: Record<string, unknown>, admin: AdminRow = editor) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin${path}`,
    headers: { ...(await t.auth(admin)), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: nextAddress(),
  })
const get = async (path: string, query: Record<string, string>, admin: AdminRow = editor) =>
  t.app.inject({ method: 'GET', url: `/api/admin${path}`, query, headers: await t.auth(admin), remoteAddress: nextAddress() })

const id = (identifier: string): string => {
  const found = ids[identifier]
  if (found === undefined) throw new Error(`no template ${identifier}`)
  return found
}
const OTP = 'change-password-otp'
const save = (fields: { subject?: string; content: string; identifier?: string }, admin: AdminRow = editor, template = OTP) =>
  post('/editTemplate', { id: id(template), subject: fields.subject ?? 'Your code', identifier: fields.identifier ?? template, content: fields.content }, admin)

const Template = z.object({ id: z.string(), subject: z.string(), identifier: z.string(), content: z.string(), langCode: z.string(), status: z.string() })
async function stored(template = OTP): Promise<z.output<typeof Template>> {
  const res = await get('/getTemplate', { id: id(template) })
  expect(res.statusCode).toBe(200)
  return Template.parse(bodyOf(res)['data'])
}
const Version = z.object({ _id: z.string(), subject: z.string(), content: z.string(), savedAt: z.string(), savedBy: z.string() })
async function versions(template = OTP, query: Record<string, string> = {}): Promise<{ rows: z.output<typeof Version>[]; count: number }> {
  const body = bodyOf(await get('/listTemplateVersions', { id: id(template), ...query }))
  return { rows: z.array(Version).parse(body['result']), count: z.number().parse(body['count']) }
}

/** A received mail with quoted-printable soft breaks and escapes undone (enough for ASCII assertions). */
const decoded = (mail: ReceivedMail): string => mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
const subjectOf = (mail: ReceivedMail): string => /^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? ''

/** Tags of sanitised HTML that could run or load something. */
const dangerous = (html: string): string[] =>
  Array.from(html.matchAll(/<[^>]*>/g), (m) => m[0]).filter((tag) => /^<\/?(script|iframe|object|embed|style|link|meta|base|form|svg|math)\b|\son\w+\s*=|javascript:|\ssrc="(?!data:image\/)|\sstyle=/i.test(tag))

describe('getemail and getTemplate', () => {
  it('lists one template per mail of the server with serial order, count and search, for View Only too', async () => {
    const body = bodyOf(await get('/getemail', { page: '1', limit: '10' }, viewOnly))
    expect(body).toMatchObject({ status: 'success', count: 10 })
    expect(listOf(body, 'result').map((r) => r['identifier'])).toEqual([
      'access-changed',
      'access-request-confirm',
      'change-password-otp',
      'forgot-password-otp',
      'new-device-sign-in',
      'newsletter',
      'passkey-added',
      'passkey-removed',
      'password-changed',
      'password-setup',
    ])
    expect(listOf(body, 'result')[5]).toMatchObject({ subject: DEFAULT_TEMPLATES.newsletter.subject, langCode: 'en', status: 'active' })
    const searched = bodyOf(await get('/getemail', { search: 'NEWS' }))
    expect(listOf(searched, 'result').map((r) => r['identifier'])).toEqual(['newsletter'])
    const second = bodyOf(await get('/getemail', { page: '2', limit: '2' }))
    expect(second).toMatchObject({ count: 10 })
    expect(listOf(second, 'result').map((r) => r['identifier'])).toEqual(['change-password-otp', 'forgot-password-otp'])
  })

  it('reads one template, and says which id is unknown', async () => {
    expect(await stored('newsletter')).toMatchObject({ identifier: 'newsletter', subject: DEFAULT_TEMPLATES.newsletter.subject })
    const missing = await get('/getTemplate', { id: 'no-such-template' })
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)).toEqual({ status: 'failed', message: 'Record not found', errors: { id: 'Record not found' } })
  })
})

describe('editTemplate', () => {
  it('saves, keeps the previous version with who saved it and when, and writes an audit row', async () => {
    const before = await stored()
    expect(bodyOf(await save({ subject: 'Code inside', content: '<p>Here: <strong>{{otp}}</strong></p>' }))).toEqual({ status: 'success', message: TEMPLATE_UPDATED })
    expect(await stored()).toMatchObject({ subject: 'Code inside', content: '<p>Here: <strong>{{otp}}</strong></p>' })
    expect(bodyOf(await save({ subject: 'Second', content: '<p>{{otp}} for {{minutes}} minutes</p>' }, t.superadmin))['status']).toBe('success')

    const { rows, count } = await versions()
    expect(count).toBe(2)
    // Newest first: the first save's text, saved by the editor; then the installed text, saved by nobody.
    expect(rows.map((v) => [v.subject, v.content, v.savedBy])).toEqual([
      ['Code inside', '<p>Here: <strong>{{otp}}</strong></p>', 'Edith Editor'],
      [before.subject, before.content, ''],
    ])
    expect(Date.parse(rows[0]?.savedAt ?? '')).toBeGreaterThan(Date.parse(rows[1]?.savedAt ?? ''))
    const audits = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/editTemplate'), eq(auditLog.recordId, id(OTP))))
    expect(audits.map((a) => a.adminId).sort()).toEqual([editor.id, t.superadmin.id].sort())
  })

  it('keeps no version for a save that changes nothing', async () => {
    const current = await stored()
    expect(bodyOf(await save({ subject: current.subject, content: current.content }))['status']).toBe('success')
    expect((await versions()).count).toBe(0)
  })

  it('refuses a template without a variable its mail needs, naming it, and stores nothing', async () => {
    const res = await save({ content: '<p>No code here</p>' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'The content must contain {{otp}}', errors: { content: 'The content must contain {{otp}}' } })
    const newsletter = await save({ content: '<p>{{content}}</p>' }, editor, 'newsletter')
    expect(bodyOf(newsletter)['errors']).toEqual({ content: 'The content must contain {{unsubscribeUrl}}' })
    expect(await stored()).toMatchObject({ content: DEFAULT_TEMPLATES[OTP].content })
    expect((await versions()).count).toBe(0)
  })

  it('checks the variables on what would be stored: a placeholder only in a stripped attribute does not count', async () => {
    const res = await save({ content: '<p title="{{otp}}" data-x="{{otp}}">code</p>' })
    expect(bodyOf(res)['errors']).toEqual({ content: 'The content must contain {{otp}}' })
  })

  it('refuses placeholders the mail does not fill in, in the content and the subject', async () => {
    expect(bodyOf(await save({ content: '<p>{{otp}} {{nmae}}</p>' }))['errors']).toEqual({ content: 'The content uses {{nmae}}, which this mail does not fill in' })
    expect(bodyOf(await save({ subject: 'Hi {{name}}', content: '<p>{{otp}}</p>' }))['errors']).toEqual({ subject: 'The subject uses {{name}}, which this mail does not fill in' })
  })

  it('refuses a changed identifier, an unknown id and the contract messages', async () => {
    const renamed = await save({ identifier: 'forgot-password-otp', content: '<p>{{otp}}</p>' })
    expect(bodyOf(renamed)).toEqual({ status: 'failed', message: IDENTIFIER_FIXED, errors: { identifier: IDENTIFIER_FIXED } })
    const unknown = await post('/editTemplate', { id: 'nope', subject: 'S', identifier: OTP, content: '<p>{{otp}}</p>' })
    expect(unknown.statusCode).toBe(404)
    const empty = await post('/editTemplate', { id: id(OTP), subject: ' ', identifier: OTP, content: '' })
    expect(bodyOf(empty)['errors']).toMatchObject({ subject: 'Subject is required', content: 'content is required' })
  })

  it('is refused to View Only, which changes nothing', async () => {
    const res = await save({ content: '<p>{{otp}} changed</p>' }, viewOnly)
    expect(res.statusCode).toBe(403)
    expect((await stored()).content).toBe(DEFAULT_TEMPLATES[OTP].content)
  })

  it('sanitises the content before storing it', async () => {
    await save({ content: '<p style="color:red" onclick="x()">{{otp}}</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><a href="https://w.example/">ok</a>' })
    expect((await stored()).content).toBe('<p>{{otp}}</p>x<a href="https://w.example/" target="_blank" rel="noopener noreferrer">ok</a>')
  })

  it(`stores each of ${XSS_VECTORS.length} known XSS vectors sanitised`, async () => {
    const findings: string[] = []
    let changes = 0
    let previous = (await stored('newsletter')).content
    // The newsletter's template: its variables include an address, which one vector abuses.
    for (const vector of XSS_VECTORS) {
      const res = await save({ content: `<p>{{content}} <a href="{{unsubscribeUrl}}">Unsubscribe</a></p>${vector.html}` }, editor, 'newsletter')
      // A NUL is refused before anything is stored (server/kit/ground/text-input.ts); the rest is sanitised.
      if (vector.html.includes('\u0000')) {
        expect(res.statusCode, vector.name).toBe(400)
        continue
      }
      expect(res.statusCode, vector.name).toBe(200)
      const { content } = await stored('newsletter')
      if (content !== previous) changes += 1
      previous = content
      for (const tag of dangerous(content)) findings.push(`${vector.name}: ${tag}`)
      if (/<script/i.test(content)) findings.push(`${vector.name}: <script`)
    }
    expect(findings).toEqual([])
    // Each save that changed the text kept the one before it.
    expect((await versions('newsletter', { limit: '1' })).count).toBe(changes)
  })
})

describe('listTemplateVersions and restoreTemplateVersion', () => {
  it('pages the versions newest first', async () => {
    for (let i = 1; i <= 3; i++) await save({ subject: `Save ${i}`, content: `<p>{{otp}} ${i}</p>` })
    const first = await versions(OTP, { page: '1', limit: '2' })
    expect(first.count).toBe(3)
    expect(first.rows.map((v) => v.subject)).toEqual(['Save 2', 'Save 1'])
    expect((await versions(OTP, { page: '2', limit: '2' })).rows.map((v) => v.subject)).toEqual([DEFAULT_TEMPLATES[OTP].subject])
    expect((await get('/listTemplateVersions', { id: 'nope' })).statusCode).toBe(404)
    expect((await get('/listTemplateVersions', { id: id(OTP) }, viewOnly)).statusCode).toBe(200)
  })

  it('restores a version as a new save, keeping the current text as a version too', async () => {
    await save({ subject: 'First', content: '<p>{{otp}} first</p>' })
    await save({ subject: 'Second', content: '<p>{{otp}} second</p>' })
    const firstVersion = (await versions()).rows.find((v) => v.subject === 'First')
    if (firstVersion === undefined) throw new Error('no First version')
    expect(bodyOf(await post('/restoreTemplateVersion', { id: id(OTP), versionId: firstVersion._id }))).toEqual({ status: 'success', message: VERSION_RESTORED })
    expect(await stored()).toMatchObject({ subject: 'First', content: '<p>{{otp}} first</p>' })
    const after = await versions()
    expect(after.rows.map((v) => v.subject)).toEqual(['Second', 'First', DEFAULT_TEMPLATES[OTP].subject])
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/restoreTemplateVersion'))
    expect(audit).toMatchObject({ adminId: editor.id, recordId: id(OTP) })
  })

  it("refuses another template's version, a version its mail could not be sent from, and View Only", async () => {
    await save({ subject: 'News', content: '<p>{{content}} <a href="{{unsubscribeUrl}}">u</a></p>' }, editor, 'newsletter')
    const [newsletterVersion] = (await versions('newsletter')).rows
    if (newsletterVersion === undefined) throw new Error('no newsletter version')
    const crossed = await post('/restoreTemplateVersion', { id: id(OTP), versionId: newsletterVersion._id })
    expect(crossed.statusCode).toBe(404)
    expect(bodyOf(crossed)['errors']).toEqual({ versionId: 'Record not found' })

    // A version from before a variable became required (written directly: no save would store it).
    const [old] = await t.handle.db
      .insert(emailTemplateVersions)
      .values({ templateId: id(OTP), subject: 'Old', content: '<p>no code</p>', savedAt: new Date(0) })
      .returning({ id: emailTemplateVersions.id })
    const refused = await post('/restoreTemplateVersion', { id: id(OTP), versionId: old?.id ?? '' })
    expect(bodyOf(refused)).toEqual({ status: 'failed', message: 'The content must contain {{otp}}', errors: { versionId: 'The content must contain {{otp}}' } })
    expect((await post('/restoreTemplateVersion', { id: id(OTP), versionId: old?.id ?? '' }, viewOnly)).statusCode).toBe(403)
    expect((await stored()).content).toBe(DEFAULT_TEMPLATES[OTP].content)
  })

  it('deletes the versions with their template', async () => {
    await save({ content: '<p>{{otp}} once</p>' })
    await t.handle.db.delete(emailTemplates).where(eq(emailTemplates.id, id(OTP)))
    expect(await t.handle.db.select().from(emailTemplateVersions).where(eq(emailTemplateVersions.templateId, id(OTP)))).toEqual([])
    // Put it back as a start would, for the tests after this one.
    const [row] = await t.handle.db.insert(emailTemplates).values({ identifier: OTP, ...DEFAULT_TEMPLATES[OTP] }).returning({ id: emailTemplates.id })
    ids[OTP] = row?.id ?? ''
  })
})

describe('previewTemplate', () => {
  it('renders an unsaved draft with the sample values, sanitised, with its plain text, for View Only too', async () => {
    const res = await post('/previewTemplate', { subject: 'Code {{otp}}', identifier: OTP, content: '<p onclick="x()">Code: <strong>{{otp}}</strong> for {{minutes}} min</p><script>alert(1)</script>' }, viewOnly)
    expect(res.statusCode).toBe(200)
    const data = z.object({ subject: z.string(), html: z.string(), text: z.string() }).parse(bodyOf(res)['data'])
    expect(data.subject).toBe('Code 482913')
    expect(data.html).toContain('<body><p>Code: <strong>482913</strong> for 10 min</p></body>')
    expect(data.text).toBe('Code: 482913 for 10 min')
    // A preview stores nothing.
    expect((await stored()).subject).toBe(DEFAULT_TEMPLATES[OTP].subject)
  })

  it('renders the newsletter with HTML sample content and the sample unsubscribe link', async () => {
    const res = await post('/previewTemplate', { subject: 'News', identifier: 'newsletter', content: DEFAULT_TEMPLATES.newsletter.content })
    const html = z.string().parse(z.record(z.string(), z.unknown()).parse(bodyOf(res)['data'])['html'])
    expect(html).toContain('<p>Hello Olivia Okafor,</p><p>This month: three new games and lower swap fees.</p>')
    expect(html).toContain('href="https://wallet.example/unsubscribe/sample"')
  })

  it('refuses an identifier no mail uses', async () => {
    const res = await post('/previewTemplate', { subject: 'S', identifier: 'welcome', content: '<p>x</p>' })
    expect(bodyOf(res)).toEqual({ status: 'failed', message: UNKNOWN_IDENTIFIER, errors: { identifier: UNKNOWN_IDENTIFIER } })
  })
})

describe('sendTestTemplate', () => {
  it("mails the saved template with the sample values to the signed-in admin's own address", async () => {
    const res = await post('/sendTestTemplate', { id: id('forgot-password-otp') })
    expect(bodyOf(res)).toEqual({ status: 'success', message: testMailSent(editor.email) })
    const mail = await smtp.next(editor.email)
    expect(subjectOf(mail)).toBe('[Test] Your code to reset your password')
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/)
    expect(otpFrom(mail)).toBe('482913')
    expect(decoded(mail)).toContain('<p>Your one-time code is: <strong>482913</strong></p>')
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/sendTestTemplate')).orderBy(asc(auditLog.at))
    expect(audit).toMatchObject({ adminId: editor.id, recordId: id('forgot-password-otp') })
  })

  it('mails an unsaved draft as the modal shows it, sanitised', async () => {
    const res = await post('/sendTestTemplate', { subject: 'Draft {{otp}}', identifier: OTP, content: '<p>Draft code {{otp}}</p><img src="https://tracker.example/p.gif">' }, t.superadmin)
    expect(bodyOf(res)['message']).toBe(testMailSent(t.superadmin.email))
    const mail = await smtp.next(t.superadmin.email)
    expect(subjectOf(mail)).toBe('[Test] Draft 482913')
    expect(decoded(mail)).toContain('<body><p>Draft code 482913</p></body>')
    expect(mail.raw).not.toContain('tracker.example')
  })

  it('needs the whole draft without an id, a known identifier, and Admin access', async () => {
    expect(bodyOf(await post('/sendTestTemplate', { subject: 'x' }))['errors']).toEqual({ identifier: 'identifier is required', content: 'content is required' })
    expect(bodyOf(await post('/sendTestTemplate', { subject: 'x', identifier: 'welcome', content: 'x' }))['errors']).toEqual({ identifier: UNKNOWN_IDENTIFIER })
    expect((await post('/sendTestTemplate', { id: id(OTP) }, viewOnly)).statusCode).toBe(403)
    expect((await post('/sendTestTemplate', { id: 'nope' })).statusCode).toBe(404)
  })
})

describe("the server's own mails", () => {
  it('sends the Reset Password OTP from its template, as an admin edited it', async () => {
    await save({ subject: 'Reset code for the back office', content: '<p>Your one-time code is: <strong>{{otp}}</strong></p><p>Valid {{minutes}} minutes.</p>' })
    const res = await post('/send-mail', {}, t.superadmin)
    expect(bodyOf(res)['status']).toBe('success')
    const mail = await smtp.next(t.superadmin.email)
    expect(subjectOf(mail)).toBe('Reset code for the back office')
    expect(otpFrom(mail)).toMatch(/^\d{6}$/)
    expect(decoded(mail)).toContain('Valid 10 minutes.')
  })
})
