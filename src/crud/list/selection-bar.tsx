/**
 * The one bar above a list whose rows can be selected: the count ("3 selected", or "All 120
 * matching selected"), "Select all N matching" (the choice kept as the list's search and filters),
 * a whole-list "Select All" where the list has one, Clear, and the actions this admin may take on
 * the selection. Every list draws its selection with it, and a bulk run's progress takes its place
 * in the same frame (BarFrame).
 */
import { useRef, type ReactNode } from 'react'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { toast } from '#src/ui/toast.ts'

/** The bar's frame: the selection, or a bulk run under way. Its palette colours turn for the dark theme by themselves (index.css). */
export function BarFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950"
    >
      {children}
    </div>
  )
}

/** The bar's words that are not a control (why an action waits). */
export function BarNote({ children }: { children: ReactNode }) {
  return <span className="text-indigo-900">{children}</span>
}

interface BarActionProps {
  label: string
  /** Removes or takes away: the one danger style. */
  danger?: boolean
  /** Nothing to act on yet (an empty choice). */
  disabled?: boolean
  /** Shown but unusable, saying why (offline, or an audience this action cannot take). */
  blockedReason?: string | undefined
  onRun: () => void
}

/**
 * One action on the selection. A blocked one stays in the tab order (aria-disabled, not
 * disabled), so a keyboard user reaches it and hears why; pressing it says so again.
 */
export function BarAction({ label, danger = false, disabled = false, blockedReason, onRun }: BarActionProps) {
  if (blockedReason !== undefined) {
    return (
      <Tooltip content={blockedReason}>
        <Button variant="outline" size="sm" aria-disabled onClick={() => toast.error(blockedReason)}>
          {label}
        </Button>
      </Tooltip>
    )
  }
  return (
    <Button variant={danger ? 'destructive' : 'outline'} size="sm" disabled={disabled} onClick={onRun}>
      {label}
    </Button>
  )
}

export interface SelectionBarProps {
  /** Rows ticked, on every page. */
  count: number
  /** "Select all N matching": the rows the search and filters match now (count undefined while counted). */
  matching?: { count: number | undefined; chosen: boolean; onChoose: () => void } | undefined
  /** A whole-list Select All (a list that holds every row): offered even before a row is ticked. */
  onSelectAll?: (() => void) | undefined
  onClear: () => void
  /** The actions this admin may take on the selection (BarAction each). */
  children?: ReactNode
}

export function SelectionBar({ count, matching, onSelectAll, onClear, children }: SelectionBarProps) {
  const clear = useRef<HTMLButtonElement>(null)
  const chosen = matching?.chosen === true
  if (count === 0 && !chosen) {
    return onSelectAll ? (
      <div>
        <Button variant="outline" size="sm" onClick={onSelectAll}>
          Select All
        </Button>
      </div>
    ) : null
  }
  const matchingCount = matching?.count
  return (
    <BarFrame label="Selected rows">
      <p role="status" className="font-medium">
        {chosen ? `All ${matchingCount?.toLocaleString('en-US') ?? ''} matching selected` : `${count.toLocaleString('en-US')} selected`}
      </p>
      {matching && !chosen && matchingCount !== undefined && matchingCount > 0 ? (
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            matching.onChoose()
            // The button goes once pressed: the focus stays in the bar, on Clear, rather than falling to the page.
            requestAnimationFrame(() => clear.current?.focus())
          }}
        >
          Select all {matchingCount.toLocaleString('en-US')} matching
        </Button>
      ) : null}
      {onSelectAll ? (
        <Button variant="outline" size="sm" onClick={onSelectAll}>
          Select All
        </Button>
      ) : null}
      <Button ref={clear} variant="ghost" size="sm" onClick={onClear}>
        Clear
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">{children}</div>
    </BarFrame>
  )
}
