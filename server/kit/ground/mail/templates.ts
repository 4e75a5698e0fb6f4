/**
 * The server's mails, rendered from the Automated Email templates (contract/emails.ts): a mail
 * names its template's identifier and supplies one value per variable; `renderMail` loads the
 * active template, fills in `{{variables}}` (HTML-escaped, except values that are sanitised HTML
 * already, such as the newsletter's body), sanitises the result again with the mail allowlist
 * (server/kit/ground/sanitize.ts) and derives the plain-text alternative from it.
 *
 * `ensureTemplates` installs a default template for every identifier that has none, at every
 * start: the server's own mails must work on a fresh production database, not only with demo data.
 * A template an admin edited is never overwritten.
 */
import { and, eq } from 'drizzle-orm'
import { convert } from 'html-to-text'
import {
  VARIABLE_PATTERN,
  variablesOf,
  type RenderedMail,
  type TemplateIdentifier,
  type TemplateValues,
} from '#contract/emails'
import type { Db } from '../../../db/index.ts'
import { emailTemplates } from '../../../db/schema.ts'
import { escapeHtml, sanitizeRichText } from '../sanitize.ts'

/** A mail whose template is missing or switched off: nothing is sent, and the log says which. */
export class TemplateUnavailable extends Error {
  constructor(readonly identifier: string) {
    super(`The email template '${identifier}' is missing or inactive`)
    this.name = 'TemplateUnavailable'
  }
}

interface TemplateText {
  subject: string
  content: string
}

const otpTemplate = (what: string): TemplateText => ({
  subject: `Your code to ${what}`,
  content: [
    '<p>Your one-time code is: <strong>{{otp}}</strong></p>',
    `<p>Use it to ${what}. It expires in {{minutes}} minutes and works once.</p>`,
    '<p>If you did not ask for it, you can ignore this mail.</p>',
  ].join(''),
})

/** What a fresh database starts with; the OTP wording is the one the mails had before templates. */
export const DEFAULT_TEMPLATES: Readonly<Record<TemplateIdentifier, TemplateText>> = {
  'change-password-otp': otpTemplate('change your password'),
  'forgot-password-otp': otpTemplate('reset your password'),
  'access-request-confirm': {
    subject: 'Confirm your request for access to the back office',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>Someone asked for access to the back office with this email address. If it was you, confirm it here:</p>',
      '<p><a href="{{confirmUrl}}">Confirm my email address</a></p>',
      '<p>The link works once and expires in {{hours}} hours. An administrator reviews your request only after it is confirmed.</p>',
      '<p>If you did not ask for access, ignore this mail: nothing happens without the link.</p>',
    ].join(''),
  },
  'password-setup': {
    subject: 'Set your back-office password',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>Your access to the back office was approved. Set your password here to log in:</p>',
      '<p><a href="{{setPasswordUrl}}">Set my password</a></p>',
      '<p>The link works once and expires in {{hours}} hours. If it has expired, ask an administrator to send a new one.</p>',
      '<p>If you did not ask for access, tell an administrator: nobody can log in to the account without this link.</p>',
    ].join(''),
  },
  'new-device-sign-in': {
    subject: 'New sign-in to your back-office account',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>Your back-office account was signed in to from a device it had not been used from before.</p>',
      '<p>When: {{time}}<br>Device: {{device}}<br>Address: {{address}}</p>',
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, someone knows your password: set a new one at once with Forgot Password on the sign-in page, and tell an administrator, who can end every session of your account.</p>',
    ].join(''),
  },
  'password-changed': {
    subject: 'Your back-office password was changed',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>The password of your back-office account was {{how}}. Every session of your account was signed out.</p>',
      '<p>When: {{time}}<br>Device: {{device}}<br>Address: {{address}}</p>',
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, set a new password at once with Forgot Password on the sign-in page, and tell an administrator: someone may have your password or your mailbox.</p>',
    ].join(''),
  },
  'access-changed': {
    subject: 'Your back-office access was changed',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>{{by}} changed your access to the back office.</p>',
      '<p>{{change}}</p>',
      '<p>When: {{time}}</p>',
      '<p>If you did not expect this change, contact an administrator.</p>',
    ].join(''),
  },
  'passkey-added': {
    subject: 'A passkey was added to your back-office account',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>A passkey named <strong>{{passkey}}</strong> was added to your back-office account. It signs you in without your password.</p>',
      '<p>When: {{time}}<br>Device: {{device}}<br>Address: {{address}}</p>',
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, someone is signed in as you: sign in, remove the passkey under Profile, Passkeys, sign out of all other sessions, set a new password with Forgot Password, and tell an administrator.</p>',
    ].join(''),
  },
  'passkey-removed': {
    subject: 'A passkey was removed from your back-office account',
    content: [
      '<p>Hello {{name}},</p>',
      '<p>The passkey named <strong>{{passkey}}</strong> was removed from your back-office account. It no longer signs you in.</p>',
      '<p>When: {{time}}<br>Device: {{device}}<br>Address: {{address}}</p>',
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, someone is signed in as you: sign in, sign out of all other sessions under Profile, set a new password with Forgot Password, and tell an administrator.</p>',
    ].join(''),
  },
  newsletter: {
    subject: 'News from the wallet',
    content: [
      '<p>Hello {{name}},</p>',
      '{{content}}',
      '<p>You receive this mail because you subscribed to our newsletter. ',
      '<a href="{{unsubscribeUrl}}">Unsubscribe</a> at any time.</p>',
    ].join(''),
  },
}

/** Installs the default template of every identifier that has none; returns how many it added. */
export async function ensureTemplates(db: Db): Promise<number> {
  const rows = Object.entries(DEFAULT_TEMPLATES).map(([identifier, t]) => ({ identifier, subject: t.subject, content: sanitizeRichText(t.content) }))
  const added = await db.insert(emailTemplates).values(rows).onConflictDoNothing({ target: emailTemplates.identifier }).returning({ id: emailTemplates.id })
  return added.length
}

/** The sample value of each variable of a template's mail (the preview and the test mail). */
export function sampleValues(identifier: string): Record<string, string> {
  return Object.fromEntries(variablesOf(identifier).map((v) => [v.name, v.sample]))
}

const htmlVariables = (identifier: string): ReadonlySet<string> => new Set(variablesOf(identifier).filter((v) => v.html === true).map((v) => v.name))

/** A placeholder without a value stays as written: a visible mistake rather than a silent gap. */
function fill(text: string, values: Readonly<Record<string, string>>, escape: (name: string, value: string) => string): string {
  return text.replace(VARIABLE_PATTERN, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined
    return value === undefined ? whole : escape(name, value)
  })
}

/** The HTML document of a mail around its sanitised body. */
function mailDocument(subject: string, body: string): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body>${body}</body></html>`,
  ].join('')
}

/** Plain text from sanitised HTML: links as "text [address]", inline images left out (their data is no text). */
export function plainText(html: string): string {
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'img', format: 'skip' },
    ],
  }).trim()
}

/**
 * A template's subject and content with `values` filled in: the subject as plain text on one line,
 * the HTML sanitised after filling in (so a value cannot bring markup or a bad link along), and
 * its plain-text alternative.
 */
export function renderTemplate(template: TemplateText, identifier: string, values: Readonly<Record<string, string>>): RenderedMail {
  const html = htmlVariables(identifier)
  const subject = fill(template.subject, values, (_name, value) => value)
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
  const body = sanitizeRichText(fill(template.content, values, (name, value) => (html.has(name) ? value : escapeHtml(value))))
  return { subject, html: mailDocument(subject, body), text: plainText(body) }
}

/** The mail of `identifier` with its values, from the active template; TemplateUnavailable when there is none. */
export async function renderMail<I extends TemplateIdentifier>(db: Db, identifier: I, values: TemplateValues<I>): Promise<RenderedMail> {
  const [template] = await db
    .select({ subject: emailTemplates.subject, content: emailTemplates.content })
    .from(emailTemplates)
    .where(and(eq(emailTemplates.identifier, identifier), eq(emailTemplates.status, 'active')))
    .limit(1)
  if (template === undefined) throw new TemplateUnavailable(identifier)
  return renderTemplate(template, identifier, values)
}
