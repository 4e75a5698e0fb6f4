/**
 * The accessibility check every screen's spec runs: axe on the page as it is, and no violation of
 * serious or critical impact. One analysis takes seconds (ten and more on a slow machine, for a
 * long list), so each call gives the running test that much more time instead of every spec
 * guessing its own timeout.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/** What one analysis may take on a slow machine, added to the test's timeout per call. */
const AXE_ALLOWANCE_MS = 20_000

export async function expectNoSevereViolations(page: Page, where = ''): Promise<void> {
  const info = test.info()
  if (info.timeout > 0) info.setTimeout(info.timeout + AXE_ALLOWANCE_MS)
  // A colour caught halfway through a transition (a button enabled a moment ago, say) is neither
  // the old nor the new colour and can fail the contrast rule: let finite animations end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  const result = await new AxeBuilder({ page }).analyze()
  const severe = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const described = severe.map((v) => `${where} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')})`.trim())
  expect(described).toEqual([])
}
