/**
 * The links area: links.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as links from '#contract/links'
import { defineArea } from '../../kit/request/areas.ts'
import { linkFinders } from './find.ts'
import { linksRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: links, label: 'Links' }],
  routes: [linksRoutes],
  find: linkFinders,
})
