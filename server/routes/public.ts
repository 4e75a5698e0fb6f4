/**
 * The public pages' configuration (contract/public.ts): the data-deletion support contact and the
 * store listing of the referral redirect, both from the environment.
 */
import * as pub from '#contract/public'
import { handlers } from '../kit/api.ts'

export const publicRoutes = handlers(pub, {
  publicInfo: async (_input, ctx) => ({
    status: 'success',
    message: 'Public information',
    // TEMPORARY until the settings area lands: sitename and sitelogo come from the settings record.
    data: { supportEmail: ctx.config.supportEmail, appStoreUrl: ctx.config.appStoreUrl, sitename: '', sitelogo: '' },
  }),
})
