import { useCallback, useEffect, useMemo, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { useSession } from '#src/lib/session.ts'
import { choiceInQuery, choiceStorageKey, columnId, parseChoice, sameChoice, withoutChoice, writeChoice, DEFAULT_CHOICE, type ColumnChoice } from './column-choice.ts'
import type { Column } from './columns.tsx'

function readStored(key: string, ids: readonly string[]): ColumnChoice {
  try {
    return parseChoice(window.localStorage.getItem(key), ids)
  } catch {
    // Storage refused (a private window's quota, a policy): the default columns, for this visit.
    return DEFAULT_CHOICE
  }
}

function store(key: string, choice: ColumnChoice): void {
  try {
    if (sameChoice(choice, DEFAULT_CHOICE)) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, writeChoice(choice))
  } catch {
    // As above: the choice still holds until the list is left.
  }
}

/**
 * The signed-in admin's column choice for the list at `route` (column-choice.ts), and its setter.
 * Opened with a `columns` query parameter (a saved view), the list adopts that choice, keeps it,
 * and takes the parameter off the address.
 */
export function useColumnChoice<R>(columns: readonly Column<R>[], route: string): [ColumnChoice, (next: ColumnChoice) => void] {
  const { userId } = useSession()
  const search = useSearch()
  const [location, navigate] = useLocation()
  const ids = useMemo(() => columns.map(columnId), [columns])
  const key = choiceStorageKey(userId, route)
  const [held, setHeld] = useState(() => ({ key, choice: readStored(key, ids) }))
  // Another admin signed in on this browser, or another list in the same component: read again.
  const stored = held.key === key ? held.choice : readStored(key, ids)
  if (held.key !== key) setHeld({ key, choice: stored })

  const fromQuery = useMemo(() => choiceInQuery(search, ids), [search, ids])
  // The query's choice becomes the held one at once (no frame with the old columns) ...
  if (fromQuery !== undefined && held.key === key && !sameChoice(held.choice, fromQuery)) setHeld({ key, choice: fromQuery })
  // ... and is kept, and taken off the address, once the screen shows it.
  useEffect(() => {
    if (fromQuery === undefined) return
    store(key, fromQuery)
    navigate(location + withoutChoice(search), { replace: true })
  }, [fromQuery, key, location, search, navigate])

  const set = useCallback(
    (next: ColumnChoice) => {
      store(key, next)
      setHeld({ key, choice: next })
    },
    [key],
  )
  return [fromQuery ?? stored, set]
}
