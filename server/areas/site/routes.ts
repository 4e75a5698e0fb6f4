/**
 * The site settings record (requirements R3.13), shared by two screens: Version (contract/version.ts)
 * and Settings (contract/settings.ts). It is one row, created empty on first use
 * (server/kit/ground/single-record.ts); the public info read (server/areas/public/routes.ts) takes the site
 * name and logo from it without creating it.
 *
 * The logo arrives through the registrar already checked by content and stored under a name the
 * server chose; a new logo replaces the old file, which is removed once the save has succeeded.
 */
import { eq } from 'drizzle-orm'
import * as settings from '#contract/settings'
import type { SiteSettings } from '#contract/settings'
import * as version from '#contract/version'
import { domainEntry } from '#contract/outward-links'
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import type { Db } from '../../db/index.ts'
import { siteSettings, type SiteSettingsRow } from '../../db/schema.ts'
import { restorable, undoableUpdate } from '../../kit/request/undo.ts'
import { editVersion, recordChanged } from '../../kit/request/edit-version.ts'
import { singleRecord } from '../../kit/ground/single-record.ts'
import { logoUrl, readSiteRecord } from '../../kit/ground/site-settings.ts'


const record = {
  table: 'site_settings',
  read: readSiteRecord,
  create: async (db: Db) => (await db.insert(siteSettings).values({}).returning())[0],
}

/** The version's trash button keeps the version it cleared, so Undo writes it back (server/kit/request/undo.ts). */
const versionTrash = restorable({ name: 'site_settings:version', table: siteSettings, endpoint: version.DeleteVersion, restored: 'Version restored successfully' })

/** The Settings form's edit version: the `revision` column (`version` is the site version). */
const settingsRevisions = editVersion({ id: siteSettings.id, version: siteSettings.revision })


const toSiteSettings = (row: SiteSettingsRow): SiteSettings => ({
  _id: row.id,
  version: row.version,
  contact_person: row.contactPerson,
  email: row.email,
  sitename: row.sitename,
  site_description: row.siteDescription,
  phone_number: row.phoneNumber,
  mobile_number: row.mobileNumber,
  address: row.address,
  google_analytics: row.googleAnalytics,
  social_link1: row.socialLink1,
  social_link2: row.socialLink2,
  social_link3: row.socialLink3,
  social_link4: row.socialLink4,
  social_link5: row.socialLink5,
  reg_code: row.regCode,
  company_info_link: row.companyInfoLink,
  license_info_link: row.licenseInfoLink,
  copyright_text: row.copyrightText,
  sitelogo: logoUrl(row),
  forcedliq: row.forcedliq,
  restricted_country_rule: row.restrictedCountryRule,
  outward_link_domains: row.outwardLinkDomains,
  two_admin_links: row.twoAdminLinks,
  frequency_cap: { on: row.frequencyCapOn, messages: row.frequencyCapMessages, days: row.frequencyCapDays },
  revision: row.revision,
})

export const versionRoutes = handlers(version, {
  getSiteSettings: async (_input, ctx) => {
    const row = await singleRecord(ctx.db, record)
    return { status: 'success', message: 'Site settings fetched', result: [{ _id: row.id, version: row.version }] }
  },

  updateVersion: async ({ _id, version: value }, ctx) => {
    const [row] = await ctx.db.update(siteSettings).set({ version: value }).where(eq(siteSettings.id, _id)).returning({ id: siteSettings.id })
    if (row === undefined) return notFound('_id')
    ctx.audit(row.id)
    return { status: 'success', message: 'Version updated successfully' }
  },

  DeleteVersion: async ({ datas }, ctx) => {
    const [before] = await ctx.db.select({ version: siteSettings.version }).from(siteSettings).where(eq(siteSettings.id, datas._id)).for('update')
    if (before === undefined) return notFound('datas')
    await ctx.db.update(siteSettings).set({ version: '' }).where(eq(siteSettings.id, datas._id))
    ctx.audit(datas._id)
    const undo = await undoableUpdate(ctx, { kind: versionTrash, id: datas._id, column: siteSettings.version, before: before.version, after: '' })
    return { status: 'success', message: 'Version deleted successfully', undo }
  },

  get_version: async (_input, ctx) => {
    const row = await readSiteRecord(ctx.db)
    return { status: 'success', message: 'Version fetched', data: { version: row?.version ?? '' } }
  },
})

export const settingsRoutes = handlers(settings, {
  getSettings: async (_input, ctx) => {
    const row = await singleRecord(ctx.db, record)
    return { status: 'success', message: 'Settings fetched', result: [toSiteSettings(row)] }
  },

  updateSettings: async (input, ctx) => {
    const logo = ctx.files['sitelogo']?.[0]?.name ?? null
    const { id } = await singleRecord(ctx.db, record)
    const fields = {
      contactPerson: input.contact_person,
      email: input.email,
      sitename: input.sitename,
      siteDescription: input.site_description,
      address: input.address,
      regCode: input.reg_code,
      phoneNumber: input.phone_number,
      mobileNumber: input.mobile_number,
      googleAnalytics: input.google_analytics,
      companyInfoLink: input.company_info_link,
      licenseInfoLink: input.license_info_link,
      socialLink1: input.social_link1,
      socialLink2: input.social_link2,
      socialLink3: input.social_link3,
      socialLink4: input.social_link4,
      socialLink5: input.social_link5,
      copyrightText: input.copyright_text,
      forcedliq: input.forcedliq,
    }
    // The old logo is read under the row lock of the same transaction, so two saves racing with
    // new logos each remove the file they replaced, and no file in use is ever removed.
    const replaced = await ctx.transaction(async (tx) => {
      const [current] = await tx.select({ sitelogo: siteSettings.sitelogo }).from(siteSettings).where(eq(siteSettings.id, id)).for('update')
      const updated = await tx
        .update(siteSettings)
        .set({ ...fields, ...(logo === null ? {} : { sitelogo: logo }), revision: settingsRevisions.next })
        .where(settingsRevisions.matches(id, input.revision))
        .returning({ id: siteSettings.id })
      // null: saved by someone else since the form read it, and nothing written.
      return updated.length === 0 ? null : (current?.sitelogo ?? '')
    })
    if (replaced === null) return recordChanged()
    if (logo !== null && replaced !== '') ctx.removeUploadLater(replaced)
    ctx.audit(id)
    return { status: 'success', message: 'Settings updated successfully' }
  },

  setOutwardLinkDomains: async ({ domains }, ctx) => {
    const kept: string[] = []
    for (const raw of domains) {
      if (raw.trim() === '') continue
      const entry = domainEntry(raw)
      if (entry === null) return failure(`Not a domain: ${raw.trim().slice(0, 80)}`, { domains: `Not a domain: ${raw.trim().slice(0, 80)}` })
      if (!kept.includes(entry)) kept.push(entry)
    }
    const { id } = await singleRecord(ctx.db, record)
    await ctx.db.update(siteSettings).set({ outwardLinkDomains: kept }).where(eq(siteSettings.id, id))
    ctx.audit(id)
    ctx.auditDetail(kept.length === 0 ? 'Every host allowed' : `Allowed: ${kept.join(', ')}`.slice(0, 500))
    return { status: 'success', message: kept.length === 0 ? 'Outward links may lead to any host' : `Outward links may lead to ${kept.length} allowed domain${kept.length === 1 ? '' : 's'}` }
  },

  setTwoAdminLinks: async ({ on }, ctx) => {
    const { id } = await singleRecord(ctx.db, record)
    await ctx.db.update(siteSettings).set({ twoAdminLinks: on }).where(eq(siteSettings.id, id))
    ctx.audit(id)
    ctx.auditDetail(on ? 'Turned on' : 'Turned off')
    return { status: 'success', message: on ? settings.TWO_ADMIN_LINKS_ON : settings.TWO_ADMIN_LINKS_OFF }
  },

  setRestrictedCountryRule: async ({ on }, ctx) => {
    const { id } = await singleRecord(ctx.db, record)
    await ctx.db.update(siteSettings).set({ restrictedCountryRule: on }).where(eq(siteSettings.id, id))
    ctx.audit(id)
    ctx.auditDetail(on ? 'Turned on' : 'Turned off')
    return { status: 'success', message: on ? settings.COUNTRY_RULE_ON : settings.COUNTRY_RULE_OFF }
  },

  setFrequencyCap: async (cap, ctx) => {
    const { id } = await singleRecord(ctx.db, record)
    await ctx.db.update(siteSettings).set({ frequencyCapOn: cap.on, frequencyCapMessages: cap.messages, frequencyCapDays: cap.days }).where(eq(siteSettings.id, id))
    ctx.audit(id)
    const text = settings.frequencyCapText(cap)
    ctx.auditDetail(text)
    return { status: 'success', message: text }
  },
})
