/**
 * The site area: the site settings record and its two screens, Settings and Version.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as settings from '#contract/settings'
import * as version from '#contract/version'
import { defineArea } from '../../kit/request/areas.ts'
import { settingsRoutes, versionRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: settings, label: 'Settings' }, { module: version, label: 'Version' }],
  routes: [settingsRoutes, versionRoutes],
})
