/**
 * A promotion's audience handed from a list to Add Promotion (the Leads' "Promote to these"), in
 * history state: the leads ticked, or with `selectall` every lead the filter matches, as the
 * promotion's own inputs (contract/promotions.ts PromotionAudience, checked again by the server), so the promotion reaches
 * exactly the rows the list chose. `from` and `count` say where it came from and how many the list
 * counted; `narrowedBy` names the list's filters in words.
 */
import { z } from 'zod/mini'
import { providers } from '#contract/common'

export const ADD_PROMOTION = '/addnotification'

// Declared here rather than taken from the promotions contract: the list that hands it over loads only this.
export const HandedAudience = z.object({
  from: z.string(),
  count: z.number(),
  narrowedBy: z.array(z.string()),
  ids: z.array(z.string()),
  selectall: z.boolean(),
  filter: z.object({ email: z.string(), provider: z.union([z.enum(providers), z.literal('')]), country: z.string() }),
})
export type HandedAudience = z.output<typeof HandedAudience>

/** The history state that carries `handed` to Add Promotion. */
export const handedState = (handed: HandedAudience): { handedAudience: HandedAudience } => ({ handedAudience: handed })

/** The audience in history state, when the state holds one that parses. */
export function handedFrom(state: unknown): HandedAudience | null {
  const parsed = z.object({ handedAudience: HandedAudience }).safeParse(state)
  return parsed.success ? parsed.data.handedAudience : null
}
