import type { Input } from '#contract/define'
import { forecastNewsletterCsv, forecastNewsletterLeads } from '#contract/newsletter'
import type { ForecastSources } from '#src/crud/writes/send-forecast.tsx'

/** Whose leads a newsletter's forecast lists: a Send's choice, or a stored send's recipients. */
export type NewsletterForecastScope = Omit<Input<typeof forecastNewsletterLeads>, 'reason' | 'page' | 'limit'>

/** Where the forecast panel finds one reason's leads, paged and as CSV, for this scope. */
export const newsletterForecastSources = (scope: NewsletterForecastScope): ForecastSources<typeof forecastNewsletterLeads, typeof forecastNewsletterCsv> => ({
  leads: forecastNewsletterLeads,
  leadsInput: (reason, page, limit) => ({ ...scope, reason, page, limit }),
  csv: forecastNewsletterCsv,
  csvInput: (reason) => ({ ...scope, reason }),
})
