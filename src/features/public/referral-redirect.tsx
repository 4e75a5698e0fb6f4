/**
 * /app/:id (spec section 2): the path segment is a referrer code; the browser goes to the app's
 * store listing with that referrer. The listing comes from the server's APP_STORE_URL.
 */
import { useEffect } from 'react'
import { usePublicInfo } from './use-public-info.ts'

/** The store listing with the referrer set (Google Play reads `referrer`). */
export function storeUrl(listing: string, code: string): string {
  const url = new URL(listing)
  url.searchParams.set('referrer', code)
  return url.toString()
}

export function ReferralRedirect({ code }: { code: string }) {
  const info = usePublicInfo()
  const target = info.state === 'ready' ? storeUrl(info.info.appStoreUrl, code.slice(0, 512)) : null
  useEffect(() => {
    // replace(): the back button should not bounce the visitor into the redirect again.
    if (target) window.location.replace(target)
  }, [target])
  return (
    <main className="grid min-h-full place-items-center p-6 text-center">
      <div>
        <h1 className="text-xl font-semibold">Opening the app store…</h1>
        {target ? (
          <p className="mt-3">
            If nothing happens,{' '}
            <a className="font-medium text-indigo-700 underline" href={target}>
              continue to the app store
            </a>
            .
          </p>
        ) : info.state === 'failed' ? (
          <p className="mt-3" role="alert">
            {info.message}
          </p>
        ) : null}
      </div>
    </main>
  )
}
