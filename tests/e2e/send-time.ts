/** Titles and send times shared by the Send later and Edit time browser tests. */
import type { Page } from '@playwright/test'

export const uniqueTitle = (label: string): string => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** A moment `ms` from now as the browser's datetime-local input holds it, as UTC words, and as ISO. */
export async function momentIn(page: Page, ms: number): Promise<{ local: string; utc: string; iso: string }> {
  return page.evaluate((offset) => {
    const at = new Date(Date.now() + offset)
    at.setSeconds(0, 0)
    const pad = (n: number) => String(n).padStart(2, '0')
    return {
      local: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`,
      utc: `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      iso: at.toISOString(),
    }
  }, ms)
}
