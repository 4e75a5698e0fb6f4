import { z } from 'zod'
import { Done, Id, PageQuery, pageOf, required } from './common.ts'
import { endpoint, reads, writes } from './define.ts'

/**
 * Spec section 3, Email template. `content` is rich text (HTML), sanitized by the server before
 * it is stored and again before it is shown. `status` defaults to active (spec section 4).
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

/** The Automated Emails table: serial number and subject, paged like every other table. */
export const getemail = endpoint({
  name: 'getemail',
  method: 'GET',
  path: '/getemail',
  input: PageQuery,
  output: pageOf(EmailTemplate),
  access: reads('/emailtemplates'),
  ours: 'Answer not shown: result and count; the optional page, limit, search default to the first 10.',
})

/**
 * The edit modal's save. The spec gives no messages for it; ours are 'Subject is required' and
 * 'content is required' (the promotion's word). `identifier` is how the server finds a template
 * to send (e.g. the OTP mail), so it keeps its shape and stays unique.
 */
export const editTemplate = endpoint({
  name: 'editTemplate',
  method: 'POST',
  path: '/editTemplate',
  input: z.object({
    id: Id,
    subject: required('Subject is required', 200),
    identifier: required('identifier is required', 100).regex(/^[A-Za-z0-9_-]+$/, 'Incorrect format'),
    content: required('content is required', 100_000),
  }),
  output: Done,
  access: writes('/emailtemplates'),
})
