/**
 * The one endpoint table: every call of spec section 7. The server registers a route per entry;
 * the PWA calls them through `call(endpoint, input)`.
 */
import * as auth from './auth.ts'
import * as leads from './leads.ts'
import * as catalog from './catalog.ts'
import type { Endpoint } from './define.ts'

export { auth, leads, catalog }

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'path' in v && 'method' in v && 'access' in v

/** Every endpoint, in one list. */
export const endpoints: readonly Endpoint[] = [auth, leads, catalog].flatMap((area) =>
  Object.values(area).filter(isEndpoint),
)
