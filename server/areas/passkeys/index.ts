/**
 * The passkeys area: the signed-in admin's passkeys (Profile), the sign-in with a passkey and the
 * step-up proof by passkey.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as passkeys from '#contract/passkeys'
import { defineArea } from '../../kit/request/areas.ts'
import { passkeyRoutes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: passkeys, label: 'Sign-in' }],
  routes: [passkeyRoutes],
})
