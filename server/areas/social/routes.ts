/**
 * Social Links (contract/social.ts): one record of five links, created empty on first use
 * (server/kit/ground/single-record.ts), so `socialmedia-get` always answers a record with a real `_id`
 * that the screen sends back with its saves. A link's delete keeps the link it cleared, so Undo
 * writes it back (server/kit/request/undo.ts).
 */
import { asc, eq } from 'drizzle-orm'
import * as social from '#contract/social'
import type { SocialLinkField, SocialMedia } from '#contract/social'
import { handlers } from '../../kit/request/handlers.ts'
import { notFound } from '../../kit/request/answers.ts'
import { restorable, undoableUpdate } from '../../kit/request/undo.ts'
import { editVersion, recordChanged } from '../../kit/request/edit-version.ts'
import type { Db } from '../../db/index.ts'
import { socialMedia, type SocialMediaRow } from '../../db/schema.ts'
import { singleRecord } from '../../kit/ground/single-record.ts'

const record = {
  table: 'social_media',
  read: async (db: Db) => (await db.select().from(socialMedia).orderBy(asc(socialMedia.id)).limit(1))[0],
  create: async (db: Db) => (await db.insert(socialMedia).values({}).returning())[0],
}

const socialVersions = editVersion({ id: socialMedia.id, version: socialMedia.version })

const linkTrash = restorable({
  name: 'social_media',
  table: socialMedia,
  endpoint: social.DeleteSocialmedia,
  version: socialMedia.version,
  restored: 'Social media link restored successfully',
})

const toSocialMedia = (row: SocialMediaRow): SocialMedia => ({
  _id: row.id,
  discordLink: row.discordLink,
  twitterLink: row.twitterLink,
  facebookLink: row.facebookLink,
  instagramLink: row.instagramLink,
  telegramLink: row.telegramLink,
  version: row.version,
})

/** The column update that clears one named link (the contract's field names are the columns'). */
const cleared: Record<SocialLinkField, Partial<SocialMediaRow>> = {
  discordLink: { discordLink: '' },
  facebookLink: { facebookLink: '' },
  twitterLink: { twitterLink: '' },
  instagramLink: { instagramLink: '' },
  telegramLink: { telegramLink: '' },
}

export const socialRoutes = handlers(social, {
  socialmediaGet: async (_input, ctx) => {
    const row = await singleRecord(ctx.db, record)
    return { status: 'success', message: 'Social media fetched', data: { data: [toSocialMedia(row)] } }
  },

  updatesocialmedia: async ({ _id, version, ...links }, ctx) => {
    const row = await singleRecord(ctx.db, record)
    // An id the screen did not get from this server names no record here: saving over the one
    // record anyway would hide a client pointed at the wrong server.
    if (_id !== undefined && _id !== row.id) return notFound('_id')
    const updated = await ctx.db
      .update(socialMedia)
      .set({ ...links, version: socialVersions.next })
      .where(socialVersions.matches(row.id, version))
      .returning({ id: socialMedia.id })
    // The one record exists (read above): matching nothing means its version moved on.
    if (updated.length === 0) return recordChanged()
    ctx.audit(row.id)
    return { status: 'success', message: 'Social media updated successfully' }
  },

  DeleteSocialmedia: async ({ linkdata, datas }, ctx) => {
    const row = await singleRecord(ctx.db, record)
    if (datas?._id !== undefined && datas._id !== row.id) return notFound('datas')
    // Only the named link: the rest of `datas` is the screen's unsaved form and stays unsaved.
    // A link the form shows changed: a form opened before learns of it at its next save.
    const column = socialMedia[linkdata]
    const [before] = await ctx.db.select({ link: column }).from(socialMedia).where(eq(socialMedia.id, row.id)).for('update')
    if (before === undefined) return notFound('datas')
    await ctx.db
      .update(socialMedia)
      .set({ ...cleared[linkdata], version: socialVersions.next })
      .where(eq(socialMedia.id, row.id))
    ctx.audit(row.id)
    const undo = await undoableUpdate(ctx, { kind: linkTrash, id: row.id, column, before: before.link, after: '' })
    return { status: 'success', message: 'Social media link deleted successfully', undo }
  },
})
