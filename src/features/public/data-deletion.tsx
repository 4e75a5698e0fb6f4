/** Public account-deletion instructions for the mobile wallet app (requirements R2.36). */
import { useEffect } from 'react'
import { usePublicInfo } from './use-public-info.ts'

export function DataDeletionPage() {
  const info = usePublicInfo()
  useEffect(() => {
    document.title = 'Delete your account · Wallet app'
  }, [])
  return (
    <main className="mx-auto max-w-2xl px-5 py-10 leading-relaxed">
      <h1 className="text-2xl font-semibold">How to delete your account and data</h1>
      <p className="mt-4">You can delete your account and its data from the wallet app on your phone:</p>
      <ol className="mt-3 list-decimal space-y-1 pl-6">
        <li>Open the wallet app.</li>
        <li>Open the menu.</li>
        <li>
          Choose <strong>Profile</strong>.
        </li>
        <li>
          Choose <strong>Delete Account</strong>.
        </li>
        <li>Review the terms shown, then confirm.</li>
      </ol>
      <h2 className="mt-8 text-lg font-semibold">What is deleted</h2>
      <p className="mt-2">
        Deletion is permanent and cannot be undone. It erases your transactions, your wallet and your profile data.
      </p>
      <h2 className="mt-8 text-lg font-semibold">Need help?</h2>
      <p className="mt-2" aria-live="polite">
        {info.state === 'ready' ? (
          <>
            Contact our support team at{' '}
            <a className="font-medium text-indigo-700 underline" href={`mailto:${info.info.supportEmail}`}>
              {info.info.supportEmail}
            </a>
            .
          </>
        ) : info.state === 'loading' ? (
          'Loading the support contact…'
        ) : (
          `The support contact could not be loaded: ${info.message}`
        )}
      </p>
    </main>
  )
}
