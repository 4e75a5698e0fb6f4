import { z } from 'zod/mini'
import { Done, Id, ok } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, reads, sessionAccess, writes } from './define.ts'
import { Deleted } from './undo.ts'
import * as self from './restrictions.ts'

/** One restricted country; `hide` is flipped by the trash button. */
export const RestrictedCountry = z.object({ _id: z.string(), country: z.string(), hide: z.boolean() })
export type RestrictedCountry = z.output<typeof RestrictedCountry>

/** Requirements R3.11: one record holding the whole list. */
export const Restrictions = z.object({ _id: z.string(), Restrictedcountry: z.array(RestrictedCountry) })
export type Restrictions = z.output<typeof Restrictions>

/** A country name as listCountry offers it. The screen's 'All' option ('*') is never sent. */
const CountryName = z
  .string({ error: 'Country is required' })
  .check(
    z.trim(),
    z.minLength(1, 'Country is required'),
    z.maxLength(100, 'Incorrect format'),
    z.refine((v) => v !== '*', 'Incorrect format'),
  )

/**
 * The country options, for Add Restriction and the promotion's country filter. Any signed-in
 * admin may read it: it is a fixed public list, and two screens with separate permissions use it.
 */
export const listCountry = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.array(z.string()) }),
  access: sessionAccess,
  ours: 'Answer not shown: result, the country names in alphabetical order.',
})

/** Answers result[0].Restrictedcountry; result is empty before the first country is added. */
export const FetchRestrictions = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.array(Restrictions) }),
  access: reads('/restriction'),
})

/** Adds countries (names from listCountry); ones already listed are kept once. */
export const AddRestrictions = endpoint({
  logAs: 'Restricted countries added',
  method: 'POST',
  input: z.object({
    country: z.array(CountryName, { error: 'Country is required' }).check(z.minLength(1, 'Country is required'), z.maxLength(400, 'Incorrect format')),
  }),
  output: Done,
  access: writes('/restriction'),
  ours: "Message not shown: 'Country is required' when the list is empty.",
})

/** Sets the hide flag of one listed country, named by its entry id. */
export const HideRestrictions = endpoint({
  logAs: 'Country visibility switched',
  method: 'POST',
  input: z.object({ hide: z.boolean({ error: 'Incorrect format' }), country: Id }),
  output: Done,
  access: writes('/restriction'),
  ours: '`country` is the entry _id (the pairing is not shown).',
})

/** Delete All / the selected rows: removes the listed entries by id; one undo brings them all back. */
export const CheckBoxDelete = endpoint({
  logAs: 'Restricted countries deleted',
  method: 'POST',
  input: z.object({
    deleteData: z
      .array(Id, { error: 'Select at least one country' })
      .check(z.minLength(1, 'Select at least one country'), z.maxLength(400, 'Incorrect format')),
  }),
  output: Deleted,
  access: writes('/restriction'),
  ours: "Message not shown: 'Select at least one country' when the list is empty.",
})

/** A restricted country as the platform's apps read it: its name and ISO 3166 alpha-2 code. */
export const PublicRestrictedCountry = z.object({ country: z.string(), code: z.string() })

/**
 * The restricted countries the platform's apps enforce: every listed country that is not hidden,
 * by name. Public (the apps read it before anyone signs in) and kept by browsers and proxies for
 * a minute, so a change reaches every app within about a minute.
 */
export const restrictedCountries = endpoint({
  method: 'GET',
  path: '/restricted-countries',
  input: z.object({}),
  output: ok({ result: z.array(PublicRestrictedCountry) }),
  access: publicAccess,
  maxAge: 60,
  // The platform's apps read it at the public's rate: answered from memory until a write.
  memo: true,
  ours: 'Not in the requirements: the public read of the restricted (not hidden) countries for the platform\'s apps.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
