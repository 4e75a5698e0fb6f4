/**
 * "Send a test to me" of a promotion (contract/promotions.ts sendTestPromotion): the title and the
 * content as written on the form, as a mail to the signed-in admin. Recipients read a promotion in
 * the platform's app (the title, then the content as plain text, its line breaks kept); the mail
 * shows the same, under a line saying what it is. A promotion has no placeholders to fill in.
 */
import type { RenderedMail } from '#contract/emails'
import { renderTemplate } from '../../kit/ground/mail/templates.ts'
import { escapeHtml } from '../../kit/ground/sanitize.ts'
import { testSubject } from '../../kit/rules/mail/test-mail.ts'

export const PROMOTION_TEST_NOTE = 'A test of a promotion, sent to you only: recipients read it in the app as below (with its image, if it has one).'

/** The plain text as HTML paragraphs: a blank line ends a paragraph, a line break stays one. */
const paragraphs = (text: string): string =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('')

export function promotionTestMail(title: string, content: string): RenderedMail {
  // No identifier: nothing is filled in, and a `{{...}}` the admin wrote reaches the mail as written, as it reaches the app.
  const mail = renderTemplate({ subject: title, content: `<p><em>${escapeHtml(PROMOTION_TEST_NOTE)}</em></p><h1>${escapeHtml(title)}</h1>${paragraphs(content)}` }, '', {})
  return { ...mail, subject: testSubject(mail.subject) }
}
