/**
 * The list toolbar's Columns menu (Radix's dropdown menu, loaded on first reach like the account
 * menu, see ui/deferred.ts): one checkbox per column, "on screen at this width".
 *
 * On a narrow table (a tablet, fold.ts) the low-priority columns are folded into the view modal;
 * the menu says so beside each one, and checking one brings it back. It comes back as an extra
 * column and the table scrolls sideways (the Action column stays in sight, sticky), rather than
 * folding another column in its place: which other column matters less is the admin's to say,
 * and they can take any column away from the same menu.
 */
import { useState, type FocusEvent, type ReactElement } from 'react'
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '#src/ui/dropdown-menu.tsx'
import { columnId, isFolded, isLastOnScreen, isOnScreen, sameChoice, setOnScreen, DEFAULT_CHOICE, type ColumnChoice } from './column-choice.ts'
import type { Column } from './columns.tsx'
import { isLow } from './fold.ts'

/** Said beside a column folded away on a narrow table. */
export const FOLDED_HERE = 'folded at this width'

export interface ColumnsMenuProps<R> {
  trigger: ReactElement
  columns: readonly Column<R>[]
  choice: ColumnChoice
  onChange: (next: ColumnChoice) => void
  /** Whether the table is narrow enough to fold now; asked each time the menu opens. */
  narrowNow: () => boolean
  /** The placeholder was pressed before this code arrived: open at once (see ui/deferred.ts). */
  openOnArrival: 'pointer' | 'keyboard' | null
}

export function ColumnsMenu<R>({ trigger, columns, choice, onChange, narrowNow, openOnArrival }: ColumnsMenuProps<R>) {
  const [narrow, setNarrow] = useState(() => (openOnArrival === null ? false : narrowNow()))
  const [focusFirstItem, setFocusFirstItem] = useState(openOnArrival === 'keyboard')
  const onContentFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (!focusFirstItem || event.target !== event.currentTarget) return
    setFocusFirstItem(false)
    event.currentTarget.querySelector<HTMLElement>('[role="menuitemcheckbox"]:not([data-disabled])')?.focus()
  }
  const folds = narrow && columns.some(isLow)
  return (
    // Not modal: the table a choice changes stays readable to screen readers (a modal menu hides
    // the rest of the page); Escape, Tab or a click elsewhere closes it.
    <DropdownMenu modal={false} defaultOpen={openOnArrival !== null} onOpenChange={(open) => (open ? setNarrow(narrowNow()) : undefined)}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" onFocus={onContentFocus} className="max-h-[70vh] w-72 overflow-y-auto">
        <DropdownMenuLabel>{folds ? 'Columns on screen. A folded column shows in the view modal; checking it brings it back here and the table scrolls sideways.' : 'Columns on screen'}</DropdownMenuLabel>
        {columns.map((c) => {
          const id = columnId(c)
          const folded = isFolded(c, choice, narrow)
          return (
            <DropdownMenuCheckboxItem
              key={id}
              checked={isOnScreen(c, choice, narrow)}
              disabled={isLastOnScreen(columns, choice, id, narrow)}
              // The menu stays open: several columns are usually chosen at once.
              onSelect={(event) => event.preventDefault()}
              onCheckedChange={(checked) => onChange(setOnScreen(columns, choice, id, checked === true, narrow))}
            >
              <span className="flex flex-col">
                <span>{c.header}</span>
                {folded ? <span className="text-xs text-slate-600">{FOLDED_HERE}</span> : null}
              </span>
            </DropdownMenuCheckboxItem>
          )
        })}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={sameChoice(choice, DEFAULT_CHOICE)} onSelect={() => onChange(DEFAULT_CHOICE)}>
          Reset columns
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
