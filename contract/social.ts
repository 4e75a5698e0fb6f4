import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, RecordVersion, ok, optionalUrl } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import { Deleted } from './undo.ts'
import * as self from './social.ts'

/** The five link fields of the Social Links screen, in its order. */
export const socialLinkFields = [
  'discordLink',
  'facebookLink',
  'twitterLink',
  'instagramLink',
  'telegramLink',
] as const
export const SocialLinkField = z.enum(socialLinkFields, { error: 'Incorrect format' })
export type SocialLinkField = z.output<typeof SocialLinkField>

/** Requirements R3.7, Social media settings. An empty string is a link not set. */
export const SocialMedia = z.object({
  _id: z.string(),
  discordLink: z.string(),
  twitterLink: z.string(),
  facebookLink: z.string(),
  instagramLink: z.string(),
  telegramLink: z.string(),
  /** Ours: the edit version (common.ts, RECORD_CHANGED); a per-field delete raises it too. */
  version: RecordVersion,
})
export type SocialMedia = z.output<typeof SocialMedia>

/** Requirements R5.4: each link optional, 'Incorrect format' when filled and not a URL. */
const SocialLinks = z.object({
  discordLink: optionalUrl,
  twitterLink: optionalUrl,
  facebookLink: optionalUrl,
  instagramLink: optionalUrl,
  telegramLink: optionalUrl,
})

/** Answers `data.data`, a list whose first item the screen uses (there is one record). */
export const socialmediaGet = endpoint({
  method: 'POST',
  path: '/socialmedia-get',
  input: z.object({}),
  output: ok({ data: z.object({ data: z.array(SocialMedia) }) }),
  access: reads('/social-links'),
})

/**
 * Saves the five links. `_id` is the record's id; it is absent before the first save, when the
 * server creates the one record.
 */
export const updatesocialmedia = endpoint({
  logAs: 'Social links updated',
  method: 'POST',
  input: z.extend(SocialLinks, { _id: z.optional(Id), version: ExpectedVersion }),
  output: Done,
  access: writes('/social-links'),
})

/**
 * Clears one link. `linkdata` names the field; `datas` is the form as the screen holds it. The
 * server clears only the named field of the stored record: other fields being edited on screen
 * are not saved by a delete (requirements R4.5: edits are saved only by Update). Its undo writes the
 * link back.
 */
export const DeleteSocialmedia = endpoint({
  logAs: 'Social link deleted',
  method: 'POST',
  path: '/Delete-socialmedia',
  input: z.object({
    linkdata: SocialLinkField,
    datas: z.optional(z.extend(z.partial(SocialLinks), { _id: z.optional(Id) })),
  }),
  output: Deleted,
  access: writes('/social-links'),
  ours: 'Answer not shown: status and message.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
