import { BASE } from '#src/lib/base.ts'

/**
 * A brand's referral link: the PWA's own origin, the /app/:id route and the code the server made
 * (contract/brands.ts, ReferralCode). Base64 may hold '/', '+' and '=', so the code is URL-encoded
 * into its one path segment.
 */
export const referralLink = (code: string, origin: string = window.location.origin): string => `${origin}${BASE}/app/${encodeURIComponent(code)}`
