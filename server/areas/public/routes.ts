/**
 * What the public pages and the side menu header read before or without a session
 * (contract/public.ts): the data-deletion support contact and the referral redirect's store
 * listing from the environment, the site name and logo from the settings record. A read creates
 * nothing: before the settings are first saved, the name and logo are ''.
 */
import * as pub from '#contract/public'
import { handlers } from '../../kit/request/handlers.ts'
import { logoUrl, readSiteRecord } from '../../kit/ground/site-settings.ts'

export const publicRoutes = handlers(pub, {
  publicInfo: async (_input, ctx) => {
    const site = await readSiteRecord(ctx.db)
    return {
      status: 'success',
      message: 'Public information',
      data: { supportEmail: ctx.config.supportEmail, appStoreUrl: ctx.config.appStoreUrl, sitename: site?.sitename ?? '', sitelogo: logoUrl(site) },
    }
  },
})
