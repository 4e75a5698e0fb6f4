/**
 * A passkey as the step-up proof, in Chromium with the DevTools virtual authenticator, on a server
 * whose proofs last 6 seconds (STEP_UP_MINUTES=0.1): adding a passkey once the sign-in's proof is
 * old asks for the password (no passkey to offer yet); after it (and accepting the offer to sign
 * out of the other sessions), removing it once that proof is old asks "Confirm it is you" with
 * "Use a passkey" beside the password, and the passkey answers it.
 *
 * Both steps wait past the proof first: a slow machine can take longer than the proof lasts
 * between signing in and adding, so a test that counted on a fresh proof would race it.
 *
 * WebAuthn refuses an IP address as the relying party: the pages are opened at localhost.
 */
import type { Page } from '@playwright/test'
import { z } from 'zod'
import { accounts } from './accounts.ts'
import { apiToken, test, expect } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'

const { origin } = ownServerWithMail('passkeys-step-up', () => ({ STEP_UP_MINUTES: '0.1' }))
test.use({ baseURL: origin.replace('//127.0.0.1:', '//localhost:') })

/** Longer than the server's proof lasts. */
const PROOF_MS = 6_000
const pastTheProof = () => new Promise((resolve) => setTimeout(resolve, PROOF_MS + 1_500))

async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  z.object({ authenticatorId: z.string() }).parse(
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }),
  )
}

test('a passkey answers the step-up question when removing it', async ({ adminPage: page }) => {
  test.setTimeout(90_000)
  await virtualAuthenticator(page)
  // Signed in somewhere else too, so the offer to sign out of the other sessions comes.
  await apiToken(page.request, accounts.superadmin)
  await page.goto('/admin/profile')
  const section = page.getByRole('region', { name: 'Passkeys' })
  await section.getByRole('button', { name: 'Add a passkey' }).click()
  const adding = page.getByRole('dialog', { name: 'Add a passkey' })
  // The name is required, in the contract's words.
  await adding.getByRole('button', { name: 'Continue' }).click()
  await expect(adding.getByText('Name is required')).toBeVisible()
  await adding.getByLabel('Name').fill('Desk key')
  await pastTheProof()
  await adding.getByRole('button', { name: 'Continue' }).click()
  const question = page.getByRole('dialog', { name: 'Confirm it is you' })
  await expect(question).toBeVisible()
  await expect(question.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0)
  await question.getByRole('textbox', { name: 'Password' }).fill(accounts.superadmin.password)
  await question.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByText('Passkey added')).toBeVisible()

  const offer = page.getByRole('alertdialog', { name: 'Sign out of all other sessions?' })
  await expect(offer).toBeVisible()
  await offer.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByText('Signed out of all other sessions')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Active sessions' }).getByTestId('active-session')).toHaveCount(1)

  await pastTheProof()
  await section.getByTestId('passkey').getByRole('button', { name: 'Remove' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, remove' }).click()
  await expect(question).toBeVisible()
  await expect(question.getByRole('textbox', { name: 'Password' })).toBeVisible()
  await question.getByRole('button', { name: 'Use a passkey' }).click()
  await expect(question).toBeHidden()
  await expect(page.getByText('Passkey removed')).toBeVisible()
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
})
