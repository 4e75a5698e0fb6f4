import { z } from 'zod/mini'
import { PageQuery, integer, ok, pageNumber, pageOf, providers } from './common.ts'
import { endpoint, nameEndpoints, reads } from './define.ts'
import * as self from './leads.ts'

export const Provider = z.enum(providers)

/** Spec section 3, Lead/user. */
export const Lead = z.object({
  _id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  operatingsystem: z.string(),
  walletaddress: z.string(),
  provider: z.string(),
})
export type Lead = z.output<typeof Lead>

/** Spec section 3, Contact enquiry. */
export const ContactEnquiry = z.object({
  _id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  phonenumber: z.string(),
  message: z.string(),
})
export type ContactEnquiry = z.output<typeof ContactEnquiry>

/** Leads page size is 50 (spec section 9). */
export const LEADS_PAGE_SIZE = 50

export const getuser = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { limit: pageNumber(1, 100, LEADS_PAGE_SIZE) }),
  output: ok({ data: z.array(Lead), count: integer() }),
  access: reads('/users'),
})

/** Streams every lead as CSV, saved as user.csv. */
export const DownloadFile = endpoint({
  method: 'GET',
  input: z.object({}),
  output: z.string(),
  answer: 'csv',
  access: reads('/users'),
})

export const getContactUS = endpoint({
  method: 'GET',
  input: PageQuery,
  output: pageOf(ContactEnquiry),
  access: reads('/contactus'),
  ours: 'Answer shape not shown in the spec: paged like every other list (result, count).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
