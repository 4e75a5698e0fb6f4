import type { Input } from '#contract/define'
import { forecastPromotionCsv, forecastPromotionLeads } from '#contract/promotions'
import type { ForecastSources } from '#src/crud/writes/send-forecast.tsx'

/** Whose leads a promotion's forecast lists: a Submit's audience, or a stored promotion's recipients. */
export type PromotionForecastScope = Omit<Input<typeof forecastPromotionLeads>, 'reason' | 'page' | 'limit'>

/** Where the forecast panel finds one reason's leads, paged and as CSV, for this scope. */
export const promotionForecastSources = (scope: PromotionForecastScope): ForecastSources<typeof forecastPromotionLeads, typeof forecastPromotionCsv> => ({
  leads: forecastPromotionLeads,
  leadsInput: (reason, page, limit) => ({ ...scope, reason, page, limit }),
  csv: forecastPromotionCsv,
  csvInput: (reason) => ({ ...scope, reason }),
})
