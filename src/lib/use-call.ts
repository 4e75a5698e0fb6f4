/**
 * `useCall(endpoint, input)`: a read of the contract through SWR, keyed by [endpoint.name, input].
 * The cache behind it is persisted per admin (see swr-cache.ts), so a list opened online still
 * renders offline, with `fetchedAt` telling when its data was fetched.
 */
import { useEffect, useState, useSyncExternalStore } from 'react'
import useSWR, { unstable_serialize, type KeyedMutator, type SWRConfiguration } from 'swr'
import type { Endpoint, Input, Output } from '#contract/define'
import { ApiError, call } from './api.ts'
import { fetchedAt, markActive, stamp, subscribeCache, verify } from './swr-cache.ts'

export interface CallState<E extends Endpoint> {
  data: Output<E> | undefined
  error: ApiError | undefined
  isLoading: boolean
  isValidating: boolean
  mutate: KeyedMutator<Output<E>>
  /** When `data` was fetched (ms since epoch), if there is data. */
  fetchedAt: number | undefined
}

export interface CallOptions<E extends Endpoint> extends SWRConfiguration<Output<E>, ApiError> {
  /**
   * Data of the frame around the screens (the side menu's site name), not of the screen: it is
   * cached offline like the rest, but the offline notice's "showing data from <time>" is about
   * the screen, so this answer's time does not count there.
   */
  frame?: boolean
  /**
   * Fetched again every `ms` while `when` holds for the latest data (a send still running). Use this
   * rather than SWR's refreshInterval as a function: SWR restarts its timer whenever that option
   * changes identity, so an inline function stops a screen that re-renders more often than `ms`
   * from ever polling, and a stable one that once answers 0 never starts again.
   */
  poll?: { ms: number; when: (data: Output<E>) => boolean }
}

/** Pass `input` null to wait (no call is made). */
export function useCall<E extends Endpoint>(endpoint: E, input: Input<E> | null, options: CallOptions<E> = {}): CallState<E> {
  const { frame = false, poll, ...swrOptions } = options
  // A number that changes only when polling starts or stops, so SWR's timer runs undisturbed between.
  const [polling, setPolling] = useState(false)
  const swrKey = input === null ? null : [endpoint.name, input]
  const key = swrKey === null ? '' : unstable_serialize(swrKey)
  // Before SWR reads the entry: data restored from storage must still match the schema.
  if (key) verify(key, (data) => endpoint.output.safeParse(data).success)

  const result = useSWR<Output<E>, ApiError>(
    swrKey,
    async () => {
      // SWR only calls the fetcher for a non-null key, so `input` is set here.
      if (input === null) throw new ApiError(0, 'No input for this call')
      try {
        const data = await call(endpoint, input)
        stamp(key, endpoint.name, input)
        return data
      } catch (error) {
        throw error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : String(error))
      }
    },
    poll === undefined ? swrOptions : { ...swrOptions, refreshInterval: polling ? poll.ms : 0 },
  )
  const wanted = poll !== undefined && result.data !== undefined && poll.when(result.data)
  // Set while rendering (React renders again at once): the next frame already polls or stops.
  if (wanted !== polling) setPolling(wanted)

  useEffect(() => (key && !frame ? markActive(key) : undefined), [key, frame])
  const at = useSyncExternalStore(
    subscribeCache,
    () => (key ? fetchedAt(key) : undefined),
    () => undefined,
  )

  return {
    data: result.data,
    error: result.error,
    isLoading: result.isLoading,
    isValidating: result.isValidating,
    mutate: result.mutate,
    fetchedAt: result.data === undefined ? undefined : at,
  }
}
