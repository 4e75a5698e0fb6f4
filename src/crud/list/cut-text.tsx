import type { ReactNode } from 'react'
import { cn } from '#src/ui/cn.ts'

/**
 * How a table cell's text gives way: `1` keeps one line, at most 15rem and then cut; `2` and `3`
 * wrap between words up to that many lines. When the table is still wider than its box
 * (`data-cut-text`, src/ui/table.tsx) each may also break anywhere (a long email, an address), so
 * the text columns narrow before the table overflows and slides them under the sticky Action
 * column. What does not fit ends in an ellipsis. The least width keeps a short word whole
 * ('web3auth') and a cut value recognisable ('United Arab…').
 */
const LINES = {
  1: 'block max-w-60 truncate group-data-cut-text/table:line-clamp-1 group-data-cut-text/table:min-w-20 group-data-cut-text/table:whitespace-normal group-data-cut-text/table:wrap-anywhere',
  2: 'line-clamp-2 max-w-md min-w-24 break-words group-data-cut-text/table:wrap-anywhere',
  3: 'line-clamp-3 max-w-xs min-w-24 break-words group-data-cut-text/table:wrap-anywhere',
} as const

/**
 * Text in a table cell, cut to fit with an ellipsis and read whole from its title (a pointer's
 * tooltip; the text itself stays in the page for screen readers and search). `children` shows the
 * text in an element of its own (a link) and must show `text`.
 */
export function CutText({ text, lines = 1, className, children }: { text: string; lines?: keyof typeof LINES; className?: string; children?: ReactNode }) {
  return (
    <span title={text} className={cn(LINES[lines], className)}>
      {children ?? text}
    </span>
  )
}
