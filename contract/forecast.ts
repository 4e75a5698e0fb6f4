import { z } from 'zod/mini'
import { integer, natural, ok, pageNumber } from './common.ts'

/*
 * The send forecast (requirements R2.37): before a promotion or a newsletter is sent, how many of
 * the selected leads it will reach and why the others are left out. The same rules run again when
 * each recipient's delivery is made (server/kit/rules/audience.ts), and a recipient left out is recorded
 * with its reason.
 */

/**
 * Why a lead is left out, in precedence order: a lead is counted under the first reason that
 * applies. `frequency-cap` is reserved for the cap on messages per lead; no rule gives it yet.
 */
export const EXCLUSION_REASONS = ['invalid-address', 'restricted-country', 'unsubscribed', 'suppressed', 'frequency-cap', 'duplicate'] as const
export const ExclusionReason = z.enum(EXCLUSION_REASONS, { error: `reason must be one of: ${EXCLUSION_REASONS.join(', ')}` })
export type ExclusionReason = z.output<typeof ExclusionReason>

/** What each reason means, as the screens show it. */
export const reasonLabels: Record<ExclusionReason, string> = {
  'invalid-address': 'Invalid address',
  'restricted-country': 'Restricted country',
  unsubscribed: 'Unsubscribed',
  suppressed: 'Suppressed address',
  'frequency-cap': 'Frequency cap',
  duplicate: 'Duplicate address',
}

/**
 * A forecast: `selected` leads, of which `recipients` get the message and the rest are left out,
 * counted per reason in `excluded` (only the reasons with a count, in precedence order).
 * `restrictedCountryRule` says whether the restricted-country rule is on (Settings).
 */
export const ForecastAnswer = ok({
  selected: natural(),
  recipients: natural(),
  excluded: z.array(z.object({ reason: ExclusionReason, count: natural() })),
  restrictedCountryRule: z.boolean(),
})
export type ForecastAnswer = z.output<typeof ForecastAnswer>

/** Rows per page of a reason's leads. */
export const FORECAST_LEADS_PAGE_SIZE = 50

/** The page of one reason's leads. */
export const ForecastPage = z.object({
  reason: ExclusionReason,
  page: pageNumber(1, 1_000_000, 1),
  limit: pageNumber(1, 100, FORECAST_LEADS_PAGE_SIZE),
})

/** A lead left out, as the forecast's list and CSV show it. */
export const ForecastLead = z.object({ _id: z.string(), name: z.string(), email: z.string(), country: z.string() })
export type ForecastLead = z.output<typeof ForecastLead>

export const ForecastLeadsAnswer = ok({ result: z.array(ForecastLead), count: integer() })

/** The CSV of one reason's leads: its columns. */
export const FORECAST_CSV_COLUMNS = ['id', 'name', 'email', 'country', 'reason'] as const
