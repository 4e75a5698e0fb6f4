import { z } from 'zod/mini'
import { ok } from './common.ts'
import { endpoint, nameEndpoints, publicAccess } from './define.ts'
import * as self from './public.ts'

/**
 * What the public pages need from the server's configuration: the data-deletion page's support
 * contact (SUPPORT_EMAIL) and the store listing the referral redirect sends visitors to
 * (APP_STORE_URL). Both are public by nature; read at run time so one build fits every deployment.
 */
export const publicInfo = endpoint({
  method: 'GET',
  path: '/public-info',
  input: z.object({}),
  output: ok({
    data: z.object({
      supportEmail: z.string(),
      appStoreUrl: z.url({ protocol: /^https?$/ }),
      /** The site name and logo URL of the Settings screen ('' until set): the side menu header shows them. */
      sitename: z.string(),
      sitelogo: z.string(),
    }),
  }),
  access: publicAccess,
  // Read by every visitor of a public page and every referral: answered from memory until a write.
  memo: true,
  ours: 'Not in the requirements: the public pages read the support email and the app store listing from the server.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
