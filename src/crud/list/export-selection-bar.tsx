/**
 * The bar of a list whose selection is for export only (the leads' CSV): "3 selected" or "All
 * 120 matching selected", Select all matching, Clear, and the export. The export takes the list's
 * search and filters, never ids, so it is offered once every row matching is chosen; with rows
 * ticked the bar says so.
 */
import type { ReactNode } from 'react'
import { Button } from '#src/ui/button.tsx'

interface ExportSelectionBarProps {
  /** Rows ticked, on every page. */
  count: number
  /** The rows the list's search and filters match now (undefined while counted). */
  matchingCount: number | undefined
  matching: boolean
  onSelectMatching: () => void
  onClear: () => void
  /** The export, shown while every row matching is chosen. */
  children: ReactNode
}

export function ExportSelectionBar({ count, matchingCount, matching, onSelectMatching, onClear, children }: ExportSelectionBarProps) {
  if (count === 0 && !matching) return null
  return (
    <div role="region" aria-label="Selected rows" className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm dark:border-indigo-800 dark:bg-indigo-950">
      <p role="status" className="font-medium text-indigo-950 dark:text-indigo-100">
        {matching ? `All ${matchingCount ?? ''} matching selected` : `${count} selected`}
      </p>
      {!matching && matchingCount !== undefined ? (
        <Button variant="outline" size="sm" onClick={onSelectMatching}>
          Select all {matchingCount} matching
        </Button>
      ) : null}
      <Button variant="ghost" size="sm" onClick={onClear}>
        Clear
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {matching ? children : <span className="text-indigo-900 dark:text-indigo-200">The export takes every row matching the search and filters: select all matching to export.</span>}
      </div>
    </div>
  )
}
