import { BASE } from '#src/lib/base.ts'

/**
 * A brand's referral link: the PWA's own origin, the /app/:id route and the code the server made
 * (contract/brands.ts, ReferralCode). Base64 may hold '/', '+' and '=', so the code is URL-encoded
 * into its one path segment.
 */
export const referralLink = (code: string, origin: string = window.location.origin): string => `${origin}${BASE}/app/${encodeURIComponent(code)}`

/** Puts `text` on the clipboard; where the Clipboard API is missing (plain http), through a selected field. */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator.clipboard?.writeText === 'function') return navigator.clipboard.writeText(text)
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  field.style.position = 'fixed'
  field.style.opacity = '0'
  document.body.append(field)
  field.select()
  // The legacy command is the only way to copy outside a secure context.
  const copied = document.execCommand('copy')
  field.remove()
  if (!copied) throw new Error('The browser refused to copy')
}
