import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import type { BulkModel } from './list-types.ts'

/** Said by a bulk action pressed before any row is chosen. */
export const NOTHING_SELECTED = 'Select at least one row first'

interface BulkBarProps {
  /** Selected rows, on every page. */
  count: number
  actions: readonly BulkModel[]
  /** Offline: the actions stay visible and say why they cannot be used. */
  blockedReason: string | undefined
  onClear: () => void
  onRun: (action: BulkModel) => void
  /**
   * Selects every row of the list, on every page (a whole-list source knows them all). With it the
   * bar is always shown, as the spec's Select All and Delete All buttons are.
   */
  onSelectAll?: (() => void) | undefined
}

/** "3 selected", Select All and Clear, and the list's bulk actions. */
export function BulkBar({ count, actions, blockedReason, onClear, onRun, onSelectAll }: BulkBarProps) {
  if (count === 0 && !onSelectAll) return null
  // A bulk action with nothing to act on says so when pressed, instead of sitting there disabled.
  const unavailable = blockedReason ?? (count === 0 ? NOTHING_SELECTED : undefined)
  return (
    <div role="region" aria-label="Selected rows" className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm">
      <p role="status" className="font-medium text-indigo-950">
        {count} selected
      </p>
      {onSelectAll ? (
        <Button variant="outline" size="sm" onClick={onSelectAll}>
          Select All
        </Button>
      ) : null}
      {count > 0 ? (
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear
        </Button>
      ) : null}
      <div className="ml-auto flex flex-wrap gap-2">
        {actions.map((action) =>
          unavailable ? (
            <Tooltip key={action.label} content={unavailable}>
              <Button size="sm" aria-disabled onClick={() => toast.error(unavailable)} className="cursor-not-allowed opacity-50">
                {action.label}
              </Button>
            </Tooltip>
          ) : (
            <Button key={action.label} size="sm" onClick={() => onRun(action)}>
              {action.label}
            </Button>
          ),
        )}
      </div>
    </div>
  )
}
