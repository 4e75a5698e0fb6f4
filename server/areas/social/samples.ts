/**
 * The social area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as social from '#contract/social'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([social], {
  socialmediaGet: () => ({ json: {} }),
  updatesocialmedia: (f) => ({ json: { _id: f.socialId, discordLink: `https://discord.gg/${unique()}`, twitterLink: 'https://x.com/example', facebookLink: '', instagramLink: '', telegramLink: '' } }),
  DeleteSocialmedia: (f) => ({ json: { linkdata: 'discordLink', datas: { _id: f.socialId } } }),
})
