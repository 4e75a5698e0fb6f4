/**
 * The palette's server search (findRecords): with the network up and two or more characters
 * typed, the server is asked for a few records of every list the session may open, so a record
 * no list has cached yet (the lead on page 8,000) is found too. Asked once the typing pauses; an
 * answer for an older query is dropped, so the results always belong to what is typed.
 */
import { useEffect, useState } from 'react'
import { MAX_QUERY, findRecords, type FoundRecord } from '#contract/search'
import { call } from '#src/lib/api.ts'

/** How long the typing must pause before the server is asked. */
const PAUSE_MS = 150
export const MIN_QUERY = 2

export type ServerSearch =
  | { state: 'idle' }
  | { state: 'offline' }
  | { state: 'searching'; query: string }
  | { state: 'done'; query: string; found: readonly FoundRecord[] }
  | { state: 'failed'; query: string; message: string }

export function useServerSearch(typed: string, online: boolean): ServerSearch {
  const query = typed.trim().slice(0, MAX_QUERY)
  const wanted = query.length >= MIN_QUERY
  const [answer, setAnswer] = useState<ServerSearch>({ state: 'idle' })
  useEffect(() => {
    if (!wanted || !online) return
    let current = true
    const timer = window.setTimeout(() => {
      setAnswer({ state: 'searching', query })
      call(findRecords, { q: query }).then(
        (found) => current && setAnswer({ state: 'done', query, found: found.result }),
        (error: unknown) => current && setAnswer({ state: 'failed', query, message: error instanceof Error ? error.message : String(error) }),
      )
    }, PAUSE_MS)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [query, wanted, online])
  if (!wanted) return { state: 'idle' }
  if (!online) return { state: 'offline' }
  // Until the answer for this query arrives, what is shown is "searching", never an older answer.
  if (answer.state === 'idle' || answer.state === 'offline' || answer.query !== query) return { state: 'searching', query }
  return answer
}
