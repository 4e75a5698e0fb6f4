/**
 * /app/:id (requirements R2.35): the path segment is a referrer code; the browser goes to the app's
 * store listing with that referrer. The listing comes from the server's APP_STORE_URL.
 *
 * On the way the visit is reported (referralVisit, ours): the server counts it for the brand the
 * code names, and for nobody when it names none. The redirect never waits long for that report,
 * and goes on whatever it answers, so a slow or foreign server cannot keep a visitor from the store.
 */
import { useEffect, useState } from 'react'
import { referralVisit, storeListing } from '#contract/brands'
import { call } from '#src/lib/api.ts'
import { usePublicInfo } from './use-public-info.ts'

/** How long the redirect waits for the visit to be counted. */
const REPORT_WAIT_MS = 1500
const MAX_CODE = 512


/**
 * The code as the brand's link was made: the router leaves '%2F', '%2B' and '%3D' encoded in a
 * path segment (base64's '/', '+' and '='), so they are decoded here, once.
 */
export function referralCodeOf(segment: string): string {
  try {
    return decodeURIComponent(segment).slice(0, MAX_CODE)
  } catch {
    return segment.slice(0, MAX_CODE)
  }
}

/** Reports the visit; settles after the answer or REPORT_WAIT_MS, whichever comes first, never failing. */
function useVisitReported(code: string): boolean {
  const [reported, setReported] = useState(false)
  useEffect(() => {
    let live = true
    const done = () => live && setReported(true)
    const timer = window.setTimeout(done, REPORT_WAIT_MS)
    call(referralVisit, { code }).then(done, done)
    return () => {
      live = false
      window.clearTimeout(timer)
    }
  }, [code])
  return reported
}

export function ReferralRedirect({ code: segment }: { code: string }) {
  const code = referralCodeOf(segment)
  const info = usePublicInfo()
  const reported = useVisitReported(code)
  const target = info.state === 'ready' ? storeListing(info.info.appStoreUrl, code) : null
  useEffect(() => {
    // replace(): the back button should not bounce the visitor into the redirect again.
    if (target && reported) window.location.replace(target)
  }, [target, reported])
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
