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
}

/** "3 selected", Clear, and the list's bulk actions, shown while rows are selected. */
export function BulkBar({ count, actions, blockedReason, onClear, onRun }: BulkBarProps) {
  if (count === 0) return null
  return (
    <div role="region" aria-label="Selected rows" className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm">
      <p role="status" className="font-medium text-indigo-950">
        {count} selected
      </p>
      <Button variant="ghost" size="sm" onClick={onClear}>
        Clear
      </Button>
      <div className="ml-auto flex flex-wrap gap-2">
        {actions.map((action) =>
          blockedReason ? (
            <Tooltip key={action.label} content={blockedReason}>
              <Button size="sm" aria-disabled onClick={() => toast.error(blockedReason)} className="cursor-not-allowed opacity-50">
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
