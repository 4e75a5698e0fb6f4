import { DeleteSocialmedia, socialmediaGet, updatesocialmedia, type SocialLinkField } from '#contract/social'
import { url, type Values } from '#src/crud/form/form-fields.ts'
import { textOf } from '#src/crud/form/form-hook.ts'
import { defineRecordForm, fieldAction } from '#src/crud/record/record-form.tsx'

/** The five links as the screen orders and labels them (requirements R2.17). */
const links: ReadonlyArray<readonly [SocialLinkField, string]> = [
  ['discordLink', 'Discord'],
  ['facebookLink', 'Facebook'],
  ['twitterLink', 'Twitter'],
  ['instagramLink', 'Instagram'],
  ['telegramLink', 'Telegram'],
]

/** The five links as the form holds them, with the record's id. */
const linksOf = (values: Values) => ({
  _id: textOf(values['_id']) || undefined,
  discordLink: textOf(values['discordLink']),
  facebookLink: textOf(values['facebookLink']),
  twitterLink: textOf(values['twitterLink']),
  instagramLink: textOf(values['instagramLink']),
  telegramLink: textOf(values['telegramLink']),
})

/** Delete-socialmedia names the field and sends the form as the screen holds it (requirements R7.6). */
const removeLink = (name: SocialLinkField, label: string) =>
  fieldAction(DeleteSocialmedia, {
    label: 'Delete',
    confirm: `Are you sure you want to remove this ${label} link`,
    payload: (_, values) => ({ linkdata: name, datas: linksOf(values) }),
  })

/**
 * Social Links (/social-links): each link locked until an Admin unlocks it, a delete per link with
 * a confirmation, Update saves all five ('Incorrect format' for a filled field that is not a URL).
 * The first save creates the one record when none is stored yet.
 */
export const SocialLinksPage = defineRecordForm({
  title: 'Social Links',
  description:
    'These five links (Discord, Facebook, Twitter, Instagram, Telegram) are the social media settings. Each is locked so that it cannot be changed by a stray keystroke: press its lock to edit it, and Update saves all five and locks them again. Settings keeps a separate set of five with the site settings (Twitter, Medium, Telegram, Facebook, Linkedin); saving one set leaves the other as it is.',
  read: socialmediaGet,
  readInput: {},
  pick: (answer) => answer.data.data[0],
  save: updatesocialmedia,
  fields: links.map(([name, label]) => url(name, label, { guard: 'lock', action: removeLink(name, label) })),
  values: (r) => ({
    _id: r._id,
    discordLink: r.discordLink,
    facebookLink: r.facebookLink,
    twitterLink: r.twitterLink,
    instagramLink: r.instagramLink,
    telegramLink: r.telegramLink,
    version: r.version,
  }),
})
