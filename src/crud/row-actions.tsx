import type { ReactNode } from 'react'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { cn } from '#src/ui/cn.ts'
import { toast } from '#src/lib/toast.ts'
import { ActionIcon } from './icons.tsx'

interface ActionButtonProps {
  icon: 'view' | 'edit' | 'remove'
  /** The tooltip and the accessible name (the spec's tooltips: Edit, Delete). */
  label: string
  /** Which record, for screen readers: "Edit Racing" rather than a column of identical "Edit". */
  subject: string
  onClick: () => void
  /** Offline: shown, announced as unavailable, and clicking says why instead of acting. */
  blockedReason?: string | undefined
}

/** One icon button of a row, with its tooltip. */
export function ActionButton({ icon, label, subject, onClick, blockedReason }: ActionButtonProps) {
  return (
    <Tooltip content={blockedReason ?? label}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`${label} ${subject}`.trim()}
        aria-disabled={blockedReason ? true : undefined}
        onClick={() => (blockedReason ? toast.error(blockedReason) : onClick())}
        className={cn(
          'h-8 w-8',
          icon === 'remove' ? 'text-red-700 hover:bg-red-50' : 'text-slate-700',
          blockedReason ? 'cursor-not-allowed opacity-50' : '',
        )}
      >
        <ActionIcon name={icon} />
      </Button>
    </Tooltip>
  )
}

export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex items-center gap-1">{children}</div>
}
