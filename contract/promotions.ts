import { z } from 'zod'
import { Done, Id, PageQuery, ok, pageOf, required } from './common.ts'
import { endpoint, reads, writes } from './define.ts'
import { IMAGE_KIND_MESSAGE, formFlag, formList, imageFiles } from './multipart.ts'

/** Spec section 3, Promotion, as the list shows it: `image` is a URL, '' when none. */
export const Promotion = z.object({
  _id: z.string(),
  title: z.string(),
  content: z.string(),
  image: z.string(),
  selectall: z.boolean(),
  createdAt: z.string(),
  /** How many users it was sent to; the list itself comes from listnotfiyuser. */
  recipientCount: z.number().int(),
})
export type Promotion = z.output<typeof Promotion>

/** A user in the promotion's filter step (and a recipient of a promotion). */
export const PromotionUser = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  provider: z.string(),
  country: z.string(),
})
export type PromotionUser = z.output<typeof PromotionUser>

/** Spec section 9: the user filter list shows 100 per page; recipients load 100 at a time. */
export const PROMOTION_PAGE_SIZE = 100

/**
 * The filter step's fields (spec section 2): each optional, '' for any. `email` matches a part of
 * an address, so it has no email pattern.
 */
export const UserFilter = z.object({
  email: z.string().trim().max(254, 'Incorrect format').default(''),
  provider: z.union([z.enum(['ipfs', 'web3auth']), z.literal('')], { error: 'Incorrect format' }).default(''),
  country: z.string().trim().max(100, 'Incorrect format').default(''),
})
export type UserFilter = z.output<typeof UserFilter>

const page = z.coerce.number().int().min(1).max(1_000_000).default(1)
const limit = z.coerce.number().int().min(1).max(PROMOTION_PAGE_SIZE).default(PROMOTION_PAGE_SIZE)

export const SELECT_A_USER = 'Please select at least one user'

/**
 * Add promotion's Submit. Recipients are the checked users (`id`), or with selectall 'true'
 * every user matching the filter step's email, provider and country (all users when those are
 * empty). Multipart: `id` may be repeated or one JSON array.
 */
export const AddPromotionInput = UserFilter.extend({
  id: formList(Id, SELECT_A_USER).default([]),
  title: required('Title is required', 200),
  content: required('content is required', 5000),
  selectall: formFlag(),
}).superRefine(
  (v, ctx) => {
    if (!v.selectall && v.id.length === 0) ctx.addIssue({ code: 'custom', path: ['id'], message: SELECT_A_USER })
  },
  { when: (p) => !p.issues.some((i) => i.path?.[0] === 'id' || i.path?.[0] === 'selectall') },
)

export const addNotification = endpoint({
  name: 'addNotification',
  method: 'POST',
  path: '/addNotification',
  input: AddPromotionInput,
  files: { image: imageFiles({ max: 1, required: false, kind: IMAGE_KIND_MESSAGE, tooMany: IMAGE_KIND_MESSAGE }) },
  output: Done,
  access: writes('/notificationlist'),
  ours: `With selectall the filter fields (email, provider, country) are also sent, so "select all" means all matching users; '${SELECT_A_USER}' is ours.`,
})

export const listNotification = endpoint({
  name: 'listNotification',
  method: 'GET',
  path: '/listNotification',
  input: PageQuery,
  output: pageOf(Promotion),
  access: reads('/notificationlist'),
})

export const DeletePromotion = endpoint({
  name: 'DeletePromotion',
  method: 'POST',
  path: '/DeletePromotion',
  input: z.object({ id: Id }),
  output: Done,
  access: writes('/notificationlist'),
})

/** The view modal's recipient emails, 100 at a time (Load More asks for the next page). */
export const listnotfiyuser = endpoint({
  name: 'listnotfiyuser',
  method: 'POST',
  path: '/listnotfiyuser',
  input: z.object({ id: Id, page, limit }),
  output: ok({ result: z.array(z.object({ _id: z.string(), email: z.string() })), count: z.number().int() }),
  access: reads('/notificationlist'),
  ours: 'Payload and answer not shown: the promotion id with page and limit; result (_id, email) and count.',
})

/** Sends the promotion again to the same recipients. */
export const ResendData = endpoint({
  name: 'ResendData',
  method: 'POST',
  path: '/ResendData',
  input: z.object({ id: Id }),
  output: Done,
  access: writes('/notificationlist'),
  ours: 'Payload and answer not shown: {id} of the promotion; status and message.',
})

/**
 * The filter step: users matching `data` (email contains, provider, country), 100 per page.
 * With `selectall: true` the filter is ignored and every user is listed, as the spec's
 * "data ... or selectall" reads.
 */
export const FilterOption = endpoint({
  name: 'FilterOption',
  method: 'POST',
  path: '/FilterOption',
  input: z.object({
    page,
    limit,
    data: UserFilter.default({ email: '', provider: '', country: '' }),
    selectall: z.boolean({ error: 'Incorrect format' }).default(false),
  }),
  output: ok({ data: z.array(PromotionUser), count: z.number().int() }),
  access: reads('/notificationlist'),
})
