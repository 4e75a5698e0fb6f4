import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { TEMPLATE_VARIABLES } from '#contract/emails'
import { emailTemplates } from '../../../db/schema.ts'
import { makeTestApp } from '../../../testing/test-app.ts'
import { DEFAULT_TEMPLATES, TemplateUnavailable, ensureTemplates, plainText, renderMail, renderTemplate, sampleValues } from './templates.ts'

const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})

const bodyOf = (html: string): string => /<body>(.*)<\/body>/s.exec(html)?.[1] ?? ''

describe('renderTemplate', () => {
  const newsletter = { subject: 'Hi {{name}}', content: '<p>Dear {{ name }},</p>{{content}}<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>' }

  it('escapes text values, keeps HTML values as sanitised HTML, and fills the subject as plain text', () => {
    const mail = renderTemplate(newsletter, 'newsletter', {
      name: 'Ann <b>&</b> "Bo"',
      content: '<h2>News</h2><p>Fees <strong>down</strong></p><script>alert(1)</script>',
      unsubscribeUrl: 'https://wallet.example/u?a=1&b=2',
    })
    expect(mail.subject).toBe('Hi Ann <b>&</b> "Bo"')
    expect(bodyOf(mail.html)).toBe(
      '<p>Dear Ann &lt;b&gt;&amp;&lt;/b&gt; "Bo",</p><h2>News</h2><p>Fees <strong>down</strong></p>' +
        '<p><a href="https://wallet.example/u?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Unsubscribe</a></p>',
    )
    expect(mail.html).toMatch(/^<!doctype html><html><head><meta charset="utf-8">.*<title>Hi Ann &lt;b&gt;&amp;&lt;\/b&gt; &quot;Bo&quot;<\/title>/)
  })

  it('sanitises after filling in: a value cannot bring a script or a javascript: address', () => {
    const mail = renderTemplate(newsletter, 'newsletter', { name: '<img src=x onerror=alert(1)>', content: '<p onclick="x()">c</p>', unsubscribeUrl: 'javascript:alert(1)' })
    // The name arrives as text, the body's handler and the bad address are gone.
    expect(bodyOf(mail.html)).toBe('<p>Dear &lt;img src=x onerror=alert(1)&gt;,</p><p>c</p><p>Unsubscribe</p>')
    // The subject is text: in the document's title it is escaped, never markup.
    expect(mail.html).toContain('<title>Hi &lt;img src=x onerror=alert(1)&gt;</title>')
  })

  it('puts the subject on one line and leaves a placeholder without a value as written', () => {
    const mail = renderTemplate({ subject: 'Code\r\nBcc: x@example.com {{otp}}', content: '<p>{{otp}} {{other}}</p>' }, 'change-password-otp', { otp: '123456' })
    expect(mail.subject).toBe('Code Bcc: x@example.com 123456')
    expect(mail.text).toBe('123456 {{other}}')
  })

  it('derives the plain text: paragraphs, lists, links with their address, no image data', () => {
    expect(plainText('<h1>Title</h1><p>One <strong>two</strong></p><ul><li>a</li><li>b</li></ul><p><a href="https://w.example/x">link</a> <img src="data:image/png;base64,AAAA" alt="logo"></p>')).toBe(
      'TITLE\n\nOne two\n\n * a\n * b\n\nlink [https://w.example/x]',
    )
    expect(plainText('<p><a href="https://w.example/">https://w.example/</a></p>')).toBe('https://w.example/')
  })

  it('renders every default template with its sample values, filling every variable', () => {
    for (const [identifier, template] of Object.entries(DEFAULT_TEMPLATES)) {
      const mail = renderTemplate(template, identifier, sampleValues(identifier))
      expect(mail.html, identifier).not.toContain('{{')
      expect(mail.text, identifier).not.toContain('{{')
      expect(mail.subject, identifier).not.toBe('')
    }
  })
})

describe('renderMail and ensureTemplates', () => {
  it('installs one active template per mail of the server on a fresh database', async () => {
    const rows = await t.handle.db.select().from(emailTemplates)
    expect(rows.map((r) => r.identifier).sort()).toEqual(Object.keys(TEMPLATE_VARIABLES).sort())
    expect(rows.every((r) => r.status === 'active' && r.langCode === 'en')).toBe(true)
  })

  it('renders the OTP mail from the stored template, with the code in the HTML and the plain text', async () => {
    const mail = await renderMail(t.handle.db, 'forgot-password-otp', { otp: '004211', minutes: '10' })
    expect(mail.subject).toBe('Your code to reset your password')
    expect(bodyOf(mail.html)).toContain('<p>Your one-time code is: <strong>004211</strong></p>')
    expect(mail.text).toContain('Your one-time code is: 004211')
    expect(mail.text).toContain('reset your password. It expires in 10 minutes')
  })

  it('uses what an admin saved, and a later start does not put the default back', async () => {
    await t.handle.db.update(emailTemplates).set({ subject: 'Edited {{otp}}' }).where(eq(emailTemplates.identifier, 'change-password-otp'))
    expect(await ensureTemplates(t.handle.db)).toBe(0)
    expect((await renderMail(t.handle.db, 'change-password-otp', { otp: '111111', minutes: '10' })).subject).toBe('Edited 111111')
  })

  it('refuses a missing or inactive template with an error naming it', async () => {
    await t.handle.db.update(emailTemplates).set({ status: 'inactive' }).where(eq(emailTemplates.identifier, 'newsletter'))
    const inactive = renderMail(t.handle.db, 'newsletter', { name: 'A', content: '<p>c</p>', unsubscribeUrl: 'https://w.example/u' })
    await expect(inactive).rejects.toThrow(TemplateUnavailable)
    await expect(inactive).rejects.toThrow("The email template 'newsletter' is missing or inactive")
    await t.handle.db.delete(emailTemplates).where(eq(emailTemplates.identifier, 'newsletter'))
    await expect(renderMail(t.handle.db, 'newsletter', { name: 'A', content: '', unsubscribeUrl: '' })).rejects.toThrow("'newsletter' is missing")
    // The next start installs it again.
    expect(await ensureTemplates(t.handle.db)).toBe(1)
    expect((await renderMail(t.handle.db, 'newsletter', { name: 'A', content: '<p>c</p>', unsubscribeUrl: 'https://w.example/u' })).text).toMatch(/Unsubscribe\s+\[https:\/\/w\.example\/u\]/)
  })
})
