import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, integer, ok, pageNumber, pageOf, providers, required, sortable } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, reads, writes } from './define.ts'
import { Deleted } from './undo.ts'
import * as self from './brands.ts'

/** Requirements R9.7: brand types web3auth and ipfs. */
export const BrandType = z.enum(providers, { error: 'type is required' })
export type BrandType = z.output<typeof BrandType>

/** Requirements R3.10, Brand. */
export const Brand = z.object({
  _id: z.string(),
  brandname: z.string(),
  type: BrandType,
  /** Ours: the edit version (common.ts, RECORD_CHANGED). */
  version: RecordVersion,
})
export type Brand = z.output<typeof Brand>

/** One email listed under a brand (View Brand). */
export const BrandEmail = z.object({ email: z.string() })
export type BrandEmail = z.output<typeof BrandEmail>

/** View Brand shows 2 emails at first and 2 more per Load More (requirements R9.3). */
export const BRAND_EMAILS_STEP = 2

const Brandname = required('Brandname is required', 100)

export const addBrand = endpoint({
  logAs: 'Brand added',
  method: 'POST',
  input: z.object({ brandname: Brandname, type: BrandType }),
  output: Done,
  access: writes('/brand'),
})

const brandSort = sortable(['brandname', 'type'])

export const listbrand = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, brandSort.input),
  output: pageOf(Brand),
  access: reads('/brand'),
  sort: brandSort,
  ours: `Payload and answer not shown: paged like every other table (page, limit, search; result, count). ${brandSort.note}`,
})

/**
 * Brand detail for View Brand: the brand as `record`, and the emails listed under it as
 * `result` with their total `count`. Load More asks for the next page.
 */
export const listbrandUser = endpoint({
  method: 'POST',
  input: z.object({
    id: Id,
    page: pageNumber(1, 1_000_000, 1),
    limit: pageNumber(1, 100, BRAND_EMAILS_STEP),
  }),
  output: ok({
    result: z.array(BrandEmail),
    count: integer(),
    record: Brand,
    /** Ours: the brand's referral code (see ReferralCode), so the PWA needs no crypto library. */
    referralCode: z.string(),
    /** Ours: how many referral redirects decoded to this brand. */
    visits: integer(),
  }),
  access: reads('/brand'),
  ours: 'page and limit added to the body id (default 2 per page) so Load More need not reload all; referralCode and visits added to the answer.',
})

/**
 * The referral code of a brand: its id encrypted with AES-256-CBC in OpenSSL's "Salted__" format,
 * key and IV from the passphrase REFERRAL_KEY by MD5 (EVP_BytesToKey), base64: what
 * CryptoJS.AES.encrypt(id, key) makes. The link is `<origin>/admin/app/<encodeURIComponent(code)>`.
 * The key is public by nature (the platform's clients hold it): the code identifies, it does not protect.
 * Longer input than 512 characters is not a code.
 */
export const ReferralCode = z.string().check(z.trim(), z.minLength(1, 'code is required'), z.maxLength(512, 'Incorrect format'))

/** The store listing with the referrer set (Google Play reads `referrer`): where the referral redirect sends a visitor. */
export function storeListing(listing: string, code: string): string {
  const url = new URL(listing)
  url.searchParams.set('referrer', code)
  return url.toString()
}

/**
 * Ours: the referral redirect (/app/:id) reports a visit before it sends the browser to the store.
 * A code that decodes to a known brand counts one visit for it; any other code counts nowhere and
 * gets the same success answer with `counted: false`, so the redirect never stops on it.
 */
export const referralVisit = endpoint({
  logAs: 'Referral link visited',
  method: 'POST',
  path: '/referral-visit',
  input: z.object({ code: ReferralCode }),
  output: ok({ counted: z.boolean() }),
  access: publicAccess,
  ours: 'Not in the requirements: counts the visits of a brand referral link (View Brand shows them).',
})

export const editbrandUser = endpoint({
  logAs: 'Brand edited',
  method: 'POST',
  input: z.object({ _id: Id, brandname: Brandname, type: BrandType, version: ExpectedVersion }),
  output: Done,
  access: writes('/brand'),
})

export const deleteBrand = endpoint({
  logAs: 'Brand deleted',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Deleted,
  access: writes('/brand'),
  ours: 'Payload not shown: {id}, as every other delete.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
