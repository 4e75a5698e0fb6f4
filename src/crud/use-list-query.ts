import { useCallback, useMemo } from 'react'
import { useLocation, useSearch } from 'wouter'
import { type ListQuery, readListQuery, writeListQuery } from './list-query.ts'

/**
 * page, limit and search of the current list, kept in the URL query. Paging pushes a history
 * entry (Back returns to the previous page); typing a search or a correction replaces it.
 */
export function useListQuery(defaultLimit: number): [ListQuery, (next: ListQuery, how?: { replace?: boolean }) => void] {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const query = useMemo(() => readListQuery(search, defaultLimit), [search, defaultLimit])
  const setQuery = useCallback(
    (next: ListQuery, how: { replace?: boolean } = {}) => {
      const target = location + writeListQuery(search, next, defaultLimit)
      navigate(target, { replace: how.replace ?? false })
    },
    [location, search, defaultLimit, navigate],
  )
  return [query, setQuery]
}
