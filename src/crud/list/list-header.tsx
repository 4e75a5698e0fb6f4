import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import type { ListModel, Row, ToolbarProps } from './list-types.ts'
import type { WriteAccess } from '../writes/write-access.ts'

/** The list's heading, its toolbar (for everyone) and the Admin-only Add button. */
export function ListHeader<R extends Row>({ model, headingId, write, toolbar }: { model: ListModel<R>; headingId: string; write: WriteAccess; toolbar: ToolbarProps }) {
  const { add, toolbar: Toolbar } = model
  let addButton: ReactNode = null
  if (write.allowed && add) {
    const label = add.label ?? 'Add'
    const blocked = write.blockedReason
    addButton = blocked ? (
      <Tooltip content={blocked}>
        <Button aria-disabled onClick={() => toast.error(blocked)}>
          {label}
        </Button>
      </Tooltip>
    ) : (
      <Button asChild>
        <Link href={add.to}>{label}</Link>
      </Button>
    )
  }
  return (
    <div className="flex flex-col gap-1">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-3">
        <h1 id={headingId} className="text-xl font-semibold text-slate-900">
          {model.title}
        </h1>
        <div className="flex items-center gap-2">
          {Toolbar ? <Toolbar {...toolbar} /> : null}
          {addButton}
        </div>
      </div>
      {model.about === undefined ? null : <p className="max-w-3xl text-sm text-slate-600">{model.about}</p>}
    </div>
  )
}
