import { z } from 'zod'
import { Done, Id, PageQuery, ok } from './common.ts'
import { endpoint, reads, writes } from './define.ts'

/*
 * The Newsletter screen: a multi-select of subscribers and a Send button; its behaviour is not
 * shown (spec section 2). Our definition: the subscribers are the platform's users (leads), which
 * /allUser lists for the multi-select, and Send mails them the Automated Email template whose
 * identifier is `newsletter`, so its subject and content are edited on /emailtemplates.
 */

/** The identifier of the template a newsletter sends. */
export const NEWSLETTER_TEMPLATE = 'newsletter'

/** Spec section 9 does not bound the multi-select; one send reaches at most this many. */
export const MAX_NEWSLETTER_RECIPIENTS = 1000

export const Subscriber = z.object({ _id: z.string(), name: z.string(), email: z.string() })
export type Subscriber = z.output<typeof Subscriber>

/**
 * Every user, for the subscriber multi-select. The spec sends no payload; the optional page,
 * limit and search (name or email) keep one answer small on a large user base.
 */
export const allUser = endpoint({
  name: 'allUser',
  method: 'GET',
  path: '/allUser',
  input: PageQuery,
  output: ok({ result: z.array(Subscriber), count: z.number().int() }),
  access: reads('/newsletter'),
  ours: 'Answer not shown: result (_id, name, email) and count; optional page, limit, search.',
})

export const SELECT_A_SUBSCRIBER = 'Please select at least one subscriber'

export const sendNewsletter = endpoint({
  name: 'sendNewsletter',
  method: 'POST',
  path: '/sendNewsletter',
  input: z.object({
    id: z
      .array(Id, { error: SELECT_A_SUBSCRIBER })
      .min(1, SELECT_A_SUBSCRIBER)
      .max(MAX_NEWSLETTER_RECIPIENTS, `You can send to at most ${MAX_NEWSLETTER_RECIPIENTS} subscribers at once.`),
  }),
  output: Done,
  access: writes('/newsletter'),
  ours: `Path, payload and answer not shown: the chosen user ids; mails the '${NEWSLETTER_TEMPLATE}' template.`,
})
