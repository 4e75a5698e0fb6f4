/**
 * Reading the one site settings record (requirements R3.13), which the site area edits (Settings,
 * Version) and the home page and the public info read: the name and the logo.
 */
import { asc } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { siteSettings, type SiteSettingsRow } from '../../db/schema.ts'
import { uploadUrl } from './uploads.ts'

/** The record as stored, or undefined before anything created it. */
export const readSiteRecord = async (db: Db): Promise<SiteSettingsRow | undefined> =>
  (await db.select().from(siteSettings).orderBy(asc(siteSettings.id)).limit(1))[0]

/** Where the logo is served, '' when none was uploaded. */
export const logoUrl = (row: SiteSettingsRow | undefined): string => (row === undefined || row.sitelogo === '' ? '' : uploadUrl(row.sitelogo))
