/**
 * Automated Emails (contract/emails.ts): the template list, the edit modal's record, save,
 * versions and restore, the preview and the test mail. Rendering lives in
 * server/kit/ground/mail/templates.ts, sanitising in server/kit/ground/sanitize.ts.
 *
 * A save sanitises the content with the mail allowlist before anything is checked or stored, then
 * refuses a template its mail could not be sent from (a required variable missing, a placeholder
 * the mail does not fill in), checked on what would be stored. The subject and content it replaces
 * are kept as a version in the same transaction, under a row lock, so two saves at once keep both
 * earlier states. A restore is a save of an earlier version's text. The identifier never changes:
 * the server finds each mail's template by it.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import * as emails from '#contract/emails'
import { isTemplateIdentifier, templateProblems, type EmailTemplate } from '#contract/emails'
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers, type Ctx } from '../../kit/request/handlers.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { sanitizeRichText } from '../../kit/ground/sanitize.ts'
import type { Db } from '../../db/index.ts'
import { admins, emailTemplates, emailTemplateVersions, type EmailTemplateRow } from '../../db/schema.ts'
import { renderTemplate, sampleValues } from '../../kit/ground/mail/templates.ts'
import { testMailLimit, testMailSent, testSubject } from '../../kit/rules/mail/test-mail.ts'

export const TEMPLATE_UPDATED = 'Template updated successfully'
export const VERSION_RESTORED = 'Version restored successfully'
export const IDENTIFIER_FIXED = 'The identifier cannot be changed: the server finds this mail by it'
export const UNKNOWN_IDENTIFIER = 'No mail of the server uses this identifier'

const toTemplate = (row: EmailTemplateRow): EmailTemplate => ({
  id: row.id,
  subject: row.subject,
  identifier: row.identifier,
  content: row.content,
  langCode: row.langCode,
  status: row.status,
})

/** The template, locked until the transaction ends (the save that follows reads what it replaces). */
async function lockedTemplate(tx: Db, id: string): Promise<EmailTemplateRow> {
  const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id)).for('update')
  if (row === undefined) throw notFound('id')
  return row
}

/** Refuses text the template's mail could not be sent from, naming the first problem under its field. */
function checkVariables(identifier: string, subject: string, content: string, field?: string): void {
  const problems = templateProblems(identifier, subject, content)
  const first = problems.subject ?? problems.content
  if (first === undefined) return
  throw failure(first, field === undefined ? problems : { [field]: first })
}

/** Keeps the current subject and content as a version, then stores the new ones. Unchanged text saves nothing. */
async function save(tx: Db, current: EmailTemplateRow, next: { subject: string; content: string }, by: string): Promise<void> {
  if (next.subject === current.subject && next.content === current.content) return
  await tx.insert(emailTemplateVersions).values({
    templateId: current.id,
    subject: current.subject,
    content: current.content,
    savedAt: current.updatedAt,
    savedBy: current.updatedBy,
  })
  await tx.update(emailTemplates).set({ subject: next.subject, content: next.content, updatedAt: new Date(), updatedBy: by }).where(eq(emailTemplates.id, current.id))
}

/** What a test mail renders: the saved template, or the modal's unsaved draft. */
async function testDraft(ctx: Ctx, input: { id?: string | undefined; subject?: string | undefined; identifier?: string | undefined; content?: string | undefined }) {
  if (input.id !== undefined) {
    const [row] = await ctx.db.select().from(emailTemplates).where(eq(emailTemplates.id, input.id)).limit(1)
    if (row === undefined) throw notFound('id')
    return { recordId: row.id, identifier: row.identifier, subject: row.subject, content: row.content }
  }
  const { subject = '', identifier = '', content = '' } = input
  return { recordId: null, identifier, subject, content }
}

export const emailRoutes = handlers(
  emails,
  {
    getemail: async (query, ctx) => {
      const { rows, count } = await listPage(ctx.db, query, {
        rows: ctx.db.select().from(emailTemplates).$dynamic(),
        search: [emailTemplates.subject, emailTemplates.identifier],
        orderBy: [asc(emailTemplates.identifier), asc(emailTemplates.id)],
        sort: { subject: caseless(emailTemplates.subject) },
      })
      return { status: 'success', message: 'Templates fetched', result: rows.map(toTemplate), count }
    },

    getTemplate: async ({ id }, ctx) => {
      const [row] = await ctx.db.select().from(emailTemplates).where(eq(emailTemplates.id, id)).limit(1)
      if (row === undefined) return notFound('id')
      return { status: 'success', message: 'Template fetched', data: toTemplate(row) }
    },

    editTemplate: async ({ id, subject, identifier, content }, ctx) => {
      const me = ctx.me()
      // Checked on what would be stored: the allowlist may drop a placeholder hidden in a removed attribute.
      const clean = sanitizeRichText(content)
      await ctx.transaction(async (tx) => {
        const current = await lockedTemplate(tx, id)
        if (identifier !== current.identifier) throw failure(IDENTIFIER_FIXED, { identifier: IDENTIFIER_FIXED })
        checkVariables(current.identifier, subject, clean)
        await save(tx, current, { subject, content: clean }, me.id)
      })
      ctx.audit(id)
      return { status: 'success', message: TEMPLATE_UPDATED }
    },

    listTemplateVersions: async ({ id, page, limit }, ctx) => {
      const [template] = await ctx.db.select({ id: emailTemplates.id }).from(emailTemplates).where(eq(emailTemplates.id, id)).limit(1)
      if (template === undefined) return notFound('id')
      const { rows, count } = await listPage(ctx.db, { page, limit, search: '' }, {
        rows: ctx.db
          .select({
            id: emailTemplateVersions.id,
            subject: emailTemplateVersions.subject,
            content: emailTemplateVersions.content,
            savedAt: emailTemplateVersions.savedAt,
            savedBy: sql<string | null>`(select ${admins.name} from ${admins} where ${admins.id} = ${emailTemplateVersions.savedBy})`,
          })
          .from(emailTemplateVersions)
          .$dynamic(),
        search: [],
        filter: eq(emailTemplateVersions.templateId, id),
        orderBy: [desc(emailTemplateVersions.savedAt), desc(emailTemplateVersions.id)],
      })
      return {
        status: 'success',
        message: 'Versions fetched',
        result: rows.map((v) => ({ _id: v.id, subject: v.subject, content: v.content, savedAt: v.savedAt.toISOString(), savedBy: v.savedBy ?? '' })),
        count,
      }
    },

    restoreTemplateVersion: async ({ id, versionId }, ctx) => {
      const me = ctx.me()
      await ctx.transaction(async (tx) => {
        const current = await lockedTemplate(tx, id)
        const [version] = await tx
          .select()
          .from(emailTemplateVersions)
          .where(and(eq(emailTemplateVersions.id, versionId), eq(emailTemplateVersions.templateId, id)))
          .limit(1)
        if (version === undefined) throw notFound('versionId')
        // Sanitised again: the allowlist may be stricter than when the version was saved.
        const content = sanitizeRichText(version.content)
        checkVariables(current.identifier, version.subject, content, 'versionId')
        await save(tx, current, { subject: version.subject, content }, me.id)
      })
      ctx.audit(id)
      return { status: 'success', message: VERSION_RESTORED }
    },

    previewTemplate: async ({ subject, identifier, content }) => {
      if (!isTemplateIdentifier(identifier)) return failure(UNKNOWN_IDENTIFIER, { identifier: UNKNOWN_IDENTIFIER })
      return { status: 'success', message: 'Preview rendered', data: renderTemplate({ subject, content }, identifier, sampleValues(identifier)) }
    },

    sendTestTemplate: async (input, ctx) => {
      const me = ctx.me()
      const draft = await testDraft(ctx, input)
      if (!isTemplateIdentifier(draft.identifier)) return failure(UNKNOWN_IDENTIFIER, { identifier: UNKNOWN_IDENTIFIER })
      const mail = renderTemplate(draft, draft.identifier, sampleValues(draft.identifier))
      await ctx.sendMail({ to: me.email, template: draft.identifier, ...mail, subject: testSubject(mail.subject) })
      ctx.audit(draft.recordId)
      return { status: 'success', message: testMailSent(me.email) }
    },
  },
  { sendTestTemplate: testMailLimit },
)
