/**
 * Step-up in the browser: on a server whose proofs last 6 seconds (STEP_UP_MINUTES=0.1), exporting
 * every lead once the sign-in's proof is older asks for the password, then downloads; Cancel
 * leaves the export undone and says so.
 */
import { accounts } from './accounts.ts'
import { test, expect } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'

ownServerWithMail('step-up', () => ({ STEP_UP_MINUTES: '0.1' }))

/** Longer than the server's proof lasts. */
const PROOF_MS = 6_000
const pastTheProof = () => new Promise((resolve) => setTimeout(resolve, PROOF_MS + 1_500))

test('exporting all leads asks for the password once the proof is old, then downloads', async ({ adminPage: page }) => {
  test.setTimeout(90_000)
  const button = page.getByRole('button', { name: 'Download CSV' })
  await expect(button).toBeVisible()
  await pastTheProof()

  const downloading = page.waitForEvent('download')
  await button.click()
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('2FA Code')).toHaveCount(0)
  await dialog.getByRole('textbox', { name: 'Password' }).fill('Wrong@1234')
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(dialog.getByText('Incorrect password')).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Password' }).fill(accounts.superadmin.password)
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  const file = await downloading
  expect(file.suggestedFilename()).toBe('user.csv')
  await expect(dialog).toBeHidden()

  // Once that proof is old too, Cancel leaves the export undone with a clear message.
  await pastTheProof()
  let downloads = 0
  page.on('download', () => (downloads += 1))
  await button.click()
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Cancelled: nothing was done. This action needs you to confirm it is you.')).toBeVisible()
  expect(downloads).toBe(0)
})
