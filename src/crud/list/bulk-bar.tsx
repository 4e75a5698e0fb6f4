import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import type { BulkModel } from './list-types.ts'

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
   * bar is always shown, as the Select All and Delete All buttons of requirements R2.25 are.
   */
  onSelectAll?: (() => void) | undefined
}

/**
 * "3 selected", Select All and Clear, and the list's bulk actions, shown once a row is selected.
 * Before that, a list that can select every row offers only Select All (the Select All of requirements R2.25;
 * its Delete All follows a selection). Bulk actions remove rows, each after a confirmation:
 * they take the one danger style.
 */
export function BulkBar({ count, actions, blockedReason, onClear, onRun, onSelectAll }: BulkBarProps) {
  if (count === 0) {
    return onSelectAll ? (
      <div>
        <Button variant="outline" size="sm" onClick={onSelectAll}>
          Select All
        </Button>
      </div>
    ) : null
  }
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
      <Button variant="ghost" size="sm" onClick={onClear}>
        Clear
      </Button>
      <div className="ml-auto flex flex-wrap gap-2">
        {actions.map((action) =>
          blockedReason ? (
            <Tooltip key={action.label} content={blockedReason}>
              <Button variant="destructive" size="sm" aria-disabled onClick={() => toast.error(blockedReason)}>
                {action.label}
              </Button>
            </Tooltip>
          ) : (
            <Button key={action.label} variant="destructive" size="sm" onClick={() => onRun(action)}>
              {action.label}
            </Button>
          ),
        )}
      </div>
    </div>
  )
}
