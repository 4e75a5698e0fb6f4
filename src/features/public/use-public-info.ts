import { useEffect, useState } from 'react'
import type { Output } from '#contract/define'
import { publicInfo } from '#contract/public'
import { ApiError, call } from '#src/lib/api.ts'

type Info = Output<typeof publicInfo>['data']
export type PublicInfoState = { state: 'loading' } | { state: 'ready'; info: Info } | { state: 'failed'; message: string }

/** The server's public configuration (support email, store listing) for the public pages. */
export function usePublicInfo(): PublicInfoState {
  const [result, setResult] = useState<PublicInfoState>({ state: 'loading' })
  useEffect(() => {
    let live = true
    call(publicInfo, {}).then(
      (answer) => live && setResult({ state: 'ready', info: answer.data }),
      (error: unknown) => live && setResult({ state: 'failed', message: error instanceof ApiError ? error.message : 'Could not load this page.' }),
    )
    return () => {
      live = false
    }
  }, [])
  return result
}
