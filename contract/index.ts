/**
 * The one endpoint table: every call of spec section 7. The server registers a route per entry;
 * the PWA calls them through `call(endpoint, input)`.
 */
import * as auth from './auth.ts'
import * as leads from './leads.ts'
import * as catalog from './catalog.ts'
import * as password from './password.ts'
import * as emails from './emails.ts'
import * as promotions from './promotions.ts'
import * as links from './links.ts'
import * as social from './social.ts'
import * as games from './games.ts'
import * as brands from './brands.ts'
import * as restrictions from './restrictions.ts'
import * as staff from './staff.ts'
import * as version from './version.ts'
import * as homepage from './homepage.ts'
import * as token from './token.ts'
import * as settings from './settings.ts'
import * as newsletter from './newsletter.ts'
import * as publicPages from './public.ts'
import * as twoFactor from './two-factor.ts'
import * as accessRequests from './access-requests.ts'
import * as audit from './audit.ts'
import * as savedViews from './saved-views.ts'
import * as dashboard from './dashboard.ts'
import * as undo from './undo.ts'
import type { Endpoint } from './define.ts'

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'path' in v && 'method' in v && 'access' in v

/** The contract's areas, one per part of spec section 7. */
export const areas = {
  auth, leads, catalog, password, emails, promotions, links, social, games, brands,
  restrictions, staff, version, homepage, token, settings, newsletter, publicPages, twoFactor, accessRequests, audit, savedViews,
  dashboard, undo,
}


/** Every endpoint, in one list. */
export const endpoints: readonly Endpoint[] = Object.values(areas).flatMap((area) => Object.values(area).filter(isEndpoint))
