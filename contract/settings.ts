import { z } from 'zod/mini'
import { Done, EMAIL_PATTERN, ExpectedVersion, RecordVersion, boundedInt, ok, optionalText, optionalUrl, plural } from './common.ts'
import { endpoint, nameEndpoints, reads, staffWrites, writes } from './define.ts'
import { IMAGE_KIND_MESSAGE, imageFiles } from './multipart.ts'
import { MAX_ALLOWED_DOMAINS } from './outward-links.ts'
import * as self from './settings.ts'

/** Requirements R9.7: forced liquidation is Enable or Disable. */
export const ForcedLiquidation = z.enum(['Enable', 'Disable'], { error: 'Incorrect format' })

/** The frequency cap's bounds: at most this many messages, in at most this many days. */
export const FREQUENCY_CAP_MAX_MESSAGES = 100
export const FREQUENCY_CAP_MAX_DAYS = 365
export const CAP_MESSAGES_MESSAGE = `Messages must be a whole number from 1 to ${FREQUENCY_CAP_MAX_MESSAGES}`
export const CAP_DAYS_MESSAGE = `Days must be a whole number from 1 to ${FREQUENCY_CAP_MAX_DAYS}`

/**
 * The frequency cap of mass sends (requirements R2.37's `frequency-cap` reason): while `on`, a lead
 * who was sent `messages` promotions and newsletters together in the last `days` days is left
 * out of the next send, in the forecast and at delivery. Off by default; the numbers are kept
 * while it is off.
 */
export const FrequencyCap = z.object({
  on: z.boolean({ error: 'Incorrect format' }),
  messages: boundedInt(CAP_MESSAGES_MESSAGE, 1, FREQUENCY_CAP_MAX_MESSAGES),
  days: boundedInt(CAP_DAYS_MESSAGE, 1, FREQUENCY_CAP_MAX_DAYS),
})
export type FrequencyCap = z.output<typeof FrequencyCap>

/** What the cap says, in words: the Settings screen and setFrequencyCap's answer. */
export const frequencyCapText = (cap: FrequencyCap): string =>
  cap.on
    ? `At most ${plural(cap.messages, 'message', 'messages')} per lead in ${plural(cap.days, 'day', 'days')}, promotions and newsletters together`
    : 'The frequency cap is off: leads receive every send'

/**
 * Requirements R3.13, Site settings: one record. `sitelogo` is the URL the server serves the logo at
 * ('' when none). `version` belongs to the Version screen and is saved there.
 */
export const SiteSettings = z.object({
  _id: z.string(),
  version: z.string(),
  contact_person: z.string(),
  email: z.string(),
  sitename: z.string(),
  site_description: z.string(),
  phone_number: z.string(),
  mobile_number: z.string(),
  address: z.string(),
  google_analytics: z.string(),
  social_link1: z.string(),
  social_link2: z.string(),
  social_link3: z.string(),
  social_link4: z.string(),
  social_link5: z.string(),
  reg_code: z.string(),
  company_info_link: z.string(),
  license_info_link: z.string(),
  copyright_text: z.string(),
  sitelogo: z.string(),
  forcedliq: z.enum(['Enable', 'Disable']),
  /**
   * Ours: whether mass sends leave out the leads whose country is on the Restriction List
   * (requirements R2.37); changed by setRestrictedCountryRule only.
   */
  restricted_country_rule: z.boolean(),
  /** Ours: the frequency cap of mass sends (FrequencyCap); changed by setFrequencyCap only. */
  frequency_cap: FrequencyCap,
  /**
   * Ours: the domains outward links may lead to (outward-links.ts), empty for every host;
   * changed by setOutwardLinkDomains only.
   */
  outward_link_domains: z.array(z.string()),
  /**
   * Ours: "Two admins for outward links" (link-changes.ts): a change to a link users follow waits
   * for another admin's approval; changed by setTwoAdminLinks only.
   */
  two_admin_links: z.boolean(),
  /**
   * Ours: the Settings form's edit version (common.ts, RECORD_CHANGED), raised by its saves only.
   * Not `version`, which is the site version above (the Version screen's field).
   */
  revision: RecordVersion,
})
export type SiteSettings = z.output<typeof SiteSettings>

/** The Settings screen labels social_link1..5 as Twitter, Medium, Telegram, Facebook, Linkedin. */
export const socialLinkLabels = {
  social_link1: 'Twitter',
  social_link2: 'Medium',
  social_link3: 'Telegram',
  social_link4: 'Facebook',
  social_link5: 'Linkedin',
} as const

/** Free text: optional, trimmed, bounded. */
const text = optionalText
/** Free text that must pass `rule` when filled ('Incorrect format' otherwise). */
const filled = (max: number, rule: (v: string) => boolean) => text(max).check(z.refine((v) => v === '' || rule(v), 'Incorrect format'))
/** A phone number: optional; at least 4 digits, with spaces, dashes, brackets and a leading + ('(351) 912 345 678'). */
const phone = filled(30, (v) => /^\+?[0-9(][0-9 ()-]{3,}$/.test(v) && (v.match(/\d/g) ?? []).length >= 4)

/**
 * The Settings screen's fields (multipart, with the logo as a file). The requirements give no messages
 * for them: every field may be left empty, links and the email must match their pattern when
 * filled ('Incorrect format', as in requirements R5).
 */
export const SettingsInput = z.object({
  contact_person: text(100),
  email: filled(254, (v) => EMAIL_PATTERN.test(v)),
  sitename: text(100),
  site_description: text(2000),
  address: text(500),
  reg_code: text(100),
  phone_number: phone,
  mobile_number: phone,
  google_analytics: text(100),
  company_info_link: optionalUrl,
  license_info_link: optionalUrl,
  social_link1: optionalUrl,
  social_link2: optionalUrl,
  social_link3: optionalUrl,
  social_link4: optionalUrl,
  social_link5: optionalUrl,
  copyright_text: text(300),
  forcedliq: z._default(ForcedLiquidation, 'Disable'),
  /** Ours: the revision the form loaded (RECORD_CHANGED when it moved on). */
  revision: ExpectedVersion,
})

/** The Settings screen's read: result[0] is the record, as the version read answers. */
export const getSettings = endpoint({
  method: 'GET',
  path: '/settings-get',
  input: z.object({}),
  output: ok({ result: z.array(SiteSettings) }),
  access: reads('/settings'),
  ours: 'Path and answer not shown: the modern counterpart of the legacy settings-get.',
})

/** Update Settings. Without a new logo the current one is kept. */
export const updateSettings = endpoint({
  logAs: 'Settings updated',
  method: 'POST',
  path: '/settings-update',
  input: SettingsInput,
  files: { sitelogo: imageFiles({ max: 1, required: false, kind: IMAGE_KIND_MESSAGE, tooMany: IMAGE_KIND_MESSAGE }) },
  output: Done,
  access: writes('/settings'),
  ours: "Path and payload not given: multipart, the fields of requirements R3.13 but version, with sitelogo as a file; the logo's message is the promotion image's.",
})

export const COUNTRY_RULE_ON = 'Leads in restricted countries are left out of every send'
export const COUNTRY_RULE_OFF = 'The restricted-country rule is off: leads in restricted countries receive sends'

/**
 * Turns the restricted-country rule of mass sends on or off (requirements R2.37): the superadmin
 * only, after a recent proof of identity, and audited like every write.
 */
export const setRestrictedCountryRule = endpoint({
  logAs: 'Restricted-country rule changed',
  method: 'POST',
  input: z.object({ on: z.boolean({ error: 'Incorrect format' }) }),
  output: Done,
  access: staffWrites('/settings'),
  stepUp: true,
  ours: 'Not in the requirements: on (true or false) turns the rule that leaves leads in restricted countries out of promotions and newsletters on or off; superadmin only, with step-up.',
})

/**
 * The domains every stored outward link must lead to (buy and swap links, game live links, homepage
 * content, social and legal links): the superadmin only, after a recent proof of identity, audited.
 * Each entry is `example.com` (that host) or `*.example.com` (it and its subdomains); an empty list
 * allows every host. Links already stored are not changed: the list holds the next writes.
 */
export const setOutwardLinkDomains = endpoint({
  logAs: 'Allowed link domains changed',
  method: 'POST',
  input: z.object({
    domains: z.array(z.string().check(z.maxLength(260, 'Incorrect format'))).check(z.maxLength(MAX_ALLOWED_DOMAINS, `At most ${MAX_ALLOWED_DOMAINS} domains`)),
  }),
  output: Done,
  access: staffWrites('/settings'),
  stepUp: true,
  ours: `Not in the requirements: domains, each example.com (that host) or *.example.com (it and every subdomain), at most ${MAX_ALLOWED_DOMAINS}; every write that stores a link users follow then refuses another host. Empty allows every host. Superadmin only, with step-up.`,
})

/**
 * Turns "Two admins for outward links" on or off (contract/link-changes.ts): the superadmin only,
 * after a recent proof of identity, audited. Changes already pending stay pending when it is
 * turned off: each is still approved, rejected or withdrawn.
 */
export const setTwoAdminLinks = endpoint({
  logAs: 'Two admins for outward links changed',
  method: 'POST',
  input: z.object({ on: z.boolean({ error: 'Incorrect format' }) }),
  output: Done,
  access: staffWrites('/settings'),
  stepUp: true,
  ours: 'Not in the requirements: on (true or false): while on, a write that changes a link users follow waits for another admin to approve it (link-changes.ts). Superadmin only, with step-up.',
})

export const TWO_ADMIN_LINKS_ON = 'Link changes now wait for a second admin'
export const TWO_ADMIN_LINKS_OFF = 'Link changes take effect at once'

/**
 * Sets the frequency cap of mass sends: the superadmin only, after a recent proof of identity, and
 * audited like every write (as setRestrictedCountryRule).
 */
export const setFrequencyCap = endpoint({
  logAs: 'Frequency cap changed',
  method: 'POST',
  input: FrequencyCap,
  output: Done,
  access: staffWrites('/settings'),
  stepUp: true,
  ours: 'Not in the requirements: on (true or false), messages (1 to 100) and days (1 to 365): while on, a lead sent that many promotions and newsletters together within that many days is left out of the next send (reason frequency-cap); superadmin only, with step-up.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
