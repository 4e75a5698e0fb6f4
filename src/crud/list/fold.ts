/**
 * Tablets are a stated use (820 px wide): a table narrower than FOLD_BELOW_PX hides its
 * low-priority columns, and the view modal then lists them, so nothing becomes unreachable.
 * The hiding itself is a CSS container query on the table's own box (no measuring before the
 * first paint, no jump), which is why the threshold exists twice: as the class below and as a
 * number for the view modal. A unit test keeps the two equal.
 */
import { isCustom, type Column, type ViewField } from './columns.tsx'

/** Width of the table's box below which low-priority columns fold away: 56rem. */
export const FOLD_BELOW_PX = 896

/** Hides a low-priority cell inside the table's `@container` box; the same 56rem as FOLD_BELOW_PX. */
export const FOLD_CLASS = '@max-[56rem]:hidden'

export const isLow = <R>(c: Column<R>): boolean => c.priority === 'low'

/** Whether a table box of this width shows its low-priority columns folded. */
export const foldsAt = (width: number | undefined): boolean => width !== undefined && width > 0 && width < FOLD_BELOW_PX

/** The columns folded away in a table box of this width. */
export const foldedColumns = <R>(columns: readonly Column<R>[], width: number | undefined): Column<R>[] =>
  foldsAt(width) ? columns.filter(isLow) : []

/** A folded column as a line of the view modal. The S.No column has nothing to say there. */
function asField<R>(c: Column<R>): ViewField<R> | undefined {
  if (isCustom(c)) return { label: c.header, value: c.cell }
  if (c.kind === 'serial') return undefined
  return { key: c.key, label: c.header, kind: c.kind }
}

/** The view modal's lines plus each folded column it does not already show (same field or label). */
export function withFolded<R>(fields: readonly ViewField<R>[], folded: readonly Column<R>[]): ViewField<R>[] {
  const out = [...fields]
  for (const c of folded) {
    const f = asField(c)
    if (!f) continue
    const shown = out.some((o) => o.label === f.label || ('key' in o && 'key' in f && o.key === f.key))
    if (!shown) out.push(f)
  }
  return out
}
