import { z } from 'zod/mini'
import { Done, Id, PageQuery, integer, ok, pageNumber, pageOf, required, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import * as self from './emails.ts'

/**
 * Requirements R3.4, Email template. `content` is rich text (HTML), sanitized by the server before
 * it is stored and again before it is sent; the PWA shows it only through DOMPurify or a sandboxed
 * iframe. `status` defaults to active (requirements R4.12). `identifier` is how the server finds the
 * template of a mail it sends (TEMPLATE_VARIABLES below).
 */
export const EmailTemplate = z.object({
  id: z.string(),
  subject: z.string(),
  identifier: z.string(),
  content: z.string(),
  langCode: z.string(),
  status: z.enum(['active', 'inactive']),
})
export type EmailTemplate = z.output<typeof EmailTemplate>

/** A `{{name}}` placeholder in a template's subject or content (spaces inside the braces allowed). */
export const VARIABLE_PATTERN = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g

/** One value a mail fills into its template. */
export interface TemplateVariable {
  name: string
  /** What the value is, for the editor's hint. */
  description: string
  /** The value the preview and the test mail use. */
  sample: string
  /** A template that lacks it is refused ("The content must contain {{otp}}"). */
  required: boolean
  /** The value is HTML the server sanitised already (the newsletter's body); every other value is escaped. */
  html?: boolean
}

const otpVariables = [
  { name: 'otp', description: 'the 6-digit one-time code', sample: '482913', required: true },
  { name: 'minutes', description: 'how many minutes the code stays valid', sample: '10', required: false },
] as const satisfies readonly TemplateVariable[]

/**
 * Every mail the server sends, by template identifier, with the values it fills in. One list for
 * the server (what a save must contain, what a send fills in), the preview's sample values and the
 * editor's click-to-insert hint. Promotions are push notifications, not mail: no template.
 */
export const TEMPLATE_VARIABLES = {
  /** Reset Password's code (/send-mail). */
  'change-password-otp': otpVariables,
  /** Forgot's code (/ForgotSend-mail). */
  'forgot-password-otp': otpVariables,
  /** The link that proves an access request's address (/register). */
  'access-request-confirm': [
    { name: 'name', description: 'the name given on the request', sample: 'Jane Doe', required: false },
    { name: 'confirmUrl', description: 'the link that confirms the request', sample: 'https://backoffice.example/admin/confirm-request?token=sample', required: true },
    { name: 'hours', description: 'how many hours the link stays valid', sample: '24', required: false },
  ],
  /** The link that sets an approved member's first password (approval, Send password link). */
  'password-setup': [
    { name: 'name', description: "the member's name", sample: 'Jane Doe', required: false },
    { name: 'setPasswordUrl', description: 'the link that opens the set-password page', sample: 'https://backoffice.example/admin/set-password?token=sample', required: true },
    { name: 'hours', description: 'how many hours the link stays valid', sample: '72', required: false },
  ],
  /** To an admin who signed in from a device none of their earlier sign-ins used (server/kit/rules/mail/account-notices.ts). */
  'new-device-sign-in': [
    { name: 'name', description: "the admin's name", sample: 'Jane Doe', required: false },
    { name: 'time', description: 'when it happened (UTC)', sample: '26 Nov 2026, 18:11 UTC', required: true },
    { name: 'device', description: 'browser and system of the sign-in', sample: 'Firefox 133 on Windows 10', required: true },
    { name: 'address', description: 'the network address it came from', sample: '203.0.113.7', required: false },
  ],
  /** To an admin whose password was changed (Reset Password) or reset (Forgot Password). */
  'password-changed': [
    { name: 'name', description: "the admin's name", sample: 'Jane Doe', required: false },
    { name: 'how', description: 'how the password was set', sample: 'changed with Reset Password while signed in', required: false },
    { name: 'time', description: 'when it happened (UTC)', sample: '26 Nov 2026, 18:11 UTC', required: true },
    { name: 'device', description: 'browser and system it was done from', sample: 'Chrome 131 on macOS Sonoma', required: false },
    { name: 'address', description: 'the network address it came from', sample: '203.0.113.7', required: false },
  ],
  /** To a staff member whose access level, screens or active status a manager changed (Users and Access). */
  'access-changed': [
    { name: 'name', description: "the staff member's name", sample: 'Jane Doe', required: false },
    { name: 'change', description: 'what changed', sample: 'Access level: View Only → Admin. Screens: Leads, Promotions', required: true },
    { name: 'by', description: 'the name of the admin who made the change', sample: 'Sam Lee', required: false },
    { name: 'time', description: 'when it happened (UTC)', sample: '26 Nov 2026, 18:11 UTC', required: true },
  ],
  /** To an admin who added a passkey to their account (Profile, Passkeys). */
  'passkey-added': [
    { name: 'name', description: "the admin's name", sample: 'Jane Doe', required: false },
    { name: 'passkey', description: 'the name given to the passkey', sample: 'Work laptop', required: true },
    { name: 'time', description: 'when it happened (UTC)', sample: '26 Nov 2026, 18:11 UTC', required: true },
    { name: 'device', description: 'browser and system it was done from', sample: 'Chrome 131 on macOS Sonoma', required: false },
    { name: 'address', description: 'the network address it came from', sample: '203.0.113.7', required: false },
  ],
  /** To an admin who removed a passkey from their account (Profile, Passkeys). */
  'passkey-removed': [
    { name: 'name', description: "the admin's name", sample: 'Jane Doe', required: false },
    { name: 'passkey', description: 'the name of the passkey removed', sample: 'Work laptop', required: true },
    { name: 'time', description: 'when it happened (UTC)', sample: '26 Nov 2026, 18:11 UTC', required: true },
    { name: 'device', description: 'browser and system it was done from', sample: 'Chrome 131 on macOS Sonoma', required: false },
    { name: 'address', description: 'the network address it came from', sample: '203.0.113.7', required: false },
  ],
  /** The Newsletter screen's mail (contract/newsletter.ts NEWSLETTER_TEMPLATE). */
  newsletter: [
    { name: 'name', description: "the subscriber's name", sample: 'Olivia Okafor', required: false },
    { name: 'content', description: 'the body written on the Newsletter screen', sample: '<p>This month: three new games and lower swap fees.</p>', required: true, html: true },
    { name: 'unsubscribeUrl', description: 'the link that ends the subscription', sample: 'https://wallet.example/unsubscribe/sample', required: true },
  ],
} as const satisfies Record<string, readonly TemplateVariable[]>

export type TemplateIdentifier = keyof typeof TEMPLATE_VARIABLES
/** The values a mail of `I` must supply: one string per variable of its template. */
export type TemplateValues<I extends TemplateIdentifier> = { [K in (typeof TEMPLATE_VARIABLES)[I][number]['name']]: string }

export const isTemplateIdentifier = (value: string): value is TemplateIdentifier => Object.hasOwn(TEMPLATE_VARIABLES, value)

/** The variables of a template's mail; none for an identifier the server does not send. */
export const variablesOf = (identifier: string): readonly TemplateVariable[] => (isTemplateIdentifier(identifier) ? TEMPLATE_VARIABLES[identifier] : [])

/** The names of the placeholders used in a text, in order of first use. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(VARIABLE_PATTERN), (m) => m[1] ?? ''))]
}

export const missingVariableMessage = (name: string): string => `The content must contain {{${name}}}`
export const unknownVariableMessage = (name: string, where: 'subject' | 'content'): string =>
  `The ${where} uses {{${name}}}, which this mail does not fill in`

/**
 * What a template's subject and content must satisfy for its mail: every required variable in the
 * content, and no placeholder the mail does not fill in (it would reach the reader as "{{nmae}}").
 * Returns field errors keyed `subject` / `content`; the server runs it again after sanitising.
 */
export function templateProblems(identifier: string, subject: string, content: string): Partial<Record<'subject' | 'content', string>> {
  if (!isTemplateIdentifier(identifier)) return {}
  const known = new Set<string>(variablesOf(identifier).map((v) => v.name))
  const problems: Partial<Record<'subject' | 'content', string>> = {}
  const strangerInSubject = placeholdersIn(subject).find((name) => !known.has(name))
  if (strangerInSubject !== undefined) problems.subject = unknownVariableMessage(strangerInSubject, 'subject')
  const used = new Set(placeholdersIn(content))
  const stranger = [...used].find((name) => !known.has(name))
  const missing = variablesOf(identifier).find((v) => v.required && !used.has(v.name))
  if (missing !== undefined) problems.content = missingVariableMessage(missing.name)
  else if (stranger !== undefined) problems.content = unknownVariableMessage(stranger, 'content')
  return problems
}

const subject = required('Subject is required', 200)
const identifier = required('identifier is required', 100).check(z.regex(/^[A-Za-z0-9_-]+$/, 'Incorrect format'))
const content = required('content is required', 100_000)

/** Subject, identifier and content must also satisfy the variable rules of the identifier's mail. */
function variableRules(v: { identifier: string; subject: string; content: string }, ctx: z.core.$RefinementCtx): void {
  for (const [path, message] of Object.entries(templateProblems(v.identifier, v.subject, v.content))) ctx.addIssue({ code: 'custom', path: [path], message })
}

/** The Automated Emails table: serial number and subject, paged like every other table. */
const templateSort = sortable(['subject'])

export const getemail = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, templateSort.input),
  output: pageOf(EmailTemplate),
  access: reads('/emailtemplates'),
  sort: templateSort,
  ours: `Answer not shown: result and count; the optional page, limit, search (subject or identifier) default to the first 10. ${templateSort.note}`,
})

/**
 * The edit modal's save. The requirements give no messages for it; ours are 'Subject is required' and
 * 'content is required' (the promotion's word). The content is sanitised before it is stored, the
 * previous subject and content are kept as a version, and the identifier cannot change: the server
 * finds each mail's template by it.
 */
export const editTemplate = endpoint({
  logAs: 'Email template edited',
  method: 'POST',
  input: z.object({ id: Id, subject, identifier, content }).check(z.superRefine(variableRules)),
  output: Done,
  access: writes('/emailtemplates'),
})

/** The edit modal's record (ours: in the requirements the row is passed along). */
export const getTemplate = endpoint({
  method: 'GET',
  input: z.object({ id: Id }),
  output: ok({ data: EmailTemplate }),
  access: reads('/emailtemplates'),
  ours: 'Not in the requirements: the get-one read of the edit modal.',
})

/** A saved earlier state of a template: what it was before a save replaced it. */
export const TemplateVersion = z.object({
  _id: z.string(),
  subject: z.string(),
  content: z.string(),
  /** When this version was saved (ISO time). */
  savedAt: z.string(),
  /** Who saved it; '' for the version the server installed. */
  savedBy: z.string(),
})
export type TemplateVersion = z.output<typeof TemplateVersion>

export const VERSIONS_PAGE_SIZE = 10

export const listTemplateVersions = endpoint({
  method: 'GET',
  input: z.object({
    id: Id,
    page: pageNumber(1, 1_000_000, 1),
    limit: pageNumber(1, 100, VERSIONS_PAGE_SIZE),
  }),
  output: ok({ result: z.array(TemplateVersion), count: integer() }),
  access: reads('/emailtemplates'),
  ours: 'Not in the requirements: a template\'s earlier versions, newest first, paged.',
})

export const restoreTemplateVersion = endpoint({
  logAs: 'Email template version restored',
  method: 'POST',
  input: z.object({ id: Id, versionId: Id }),
  output: Done,
  access: writes('/emailtemplates'),
  ours: 'Not in the requirements: brings an earlier version back as a new save (the current one is kept as a version too).',
})

/** A mail as it would be sent: the subject, the HTML and its plain-text alternative. */
export const RenderedMail = z.object({ subject: z.string(), html: z.string(), text: z.string() })
export type RenderedMail = z.output<typeof RenderedMail>

/** The modal's Preview: an unsaved subject and content rendered with the sample values. */
export const previewTemplate = endpoint({
  method: 'POST',
  input: z.object({ subject, identifier, content: z.string().check(z.maxLength(100_000, 'Incorrect format')) }),
  output: ok({ data: RenderedMail }),
  access: reads('/emailtemplates'),
  ours: 'Not in the requirements: renders without saving; reading it changes nothing, so View Only may preview.',
})

/**
 * Mails the rendered template, with the sample values, to the signed-in admin's own address: the
 * saved template (`id`), or the modal's unsaved subject, content and identifier. Like the preview,
 * it renders what it is given: the variable rules bind saving, not trying.
 */
export const sendTestTemplate = endpoint({
  logAs: 'Test email sent',
  method: 'POST',
  input: z
    .object({ id: z.optional(Id), subject: z.optional(subject), identifier: z.optional(identifier), content: z.optional(content) })
    .check(
      z.superRefine((v, ctx) => {
        if (v.id !== undefined) return
        // Without an id, the unsaved draft is what is sent; each of its fields is then required.
        const messages = { subject: 'Subject is required', identifier: 'identifier is required', content: 'content is required' } as const
        for (const key of ['subject', 'identifier', 'content'] as const) {
          if (v[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: messages[key] })
        }
      }),
    ),
  output: Done,
  access: writes('/emailtemplates'),
  ours: 'Not in the requirements: a test mail to the signed-in admin; the answer names the address.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
