import { useCallback, useMemo } from 'react'
import { useLocation, useSearch } from 'wouter'
import type { ListSort } from '#contract/common'
import { type ListQuery, readListQuery, writeListQuery } from './list-query.ts'

/**
 * page, limit, search and sort of the current list, kept in the URL query. Paging and sorting push
 * a history entry (Back returns to the previous page or order); typing a search or a correction
 * replaces it.
 */
export function useListQuery(defaultLimit: number, sort?: ListSort): [ListQuery, (next: ListQuery, how?: { replace?: boolean }) => void] {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const query = useMemo(() => readListQuery(search, defaultLimit, sort), [search, defaultLimit, sort])
  const setQuery = useCallback(
    (next: ListQuery, how: { replace?: boolean } = {}) => {
      const target = location + writeListQuery(search, next, defaultLimit)
      navigate(target, { replace: how.replace ?? false })
    },
    [location, search, defaultLimit, navigate],
  )
  return [query, setQuery]
}
