/**
 * Column and view-field descriptions for `defineList`. Key-based helpers (`col`, `date`, `image`,
 * `yesNo`, `mono`) take the record's field name, which `defineList` checks against the list
 * endpoint's record type; anything else is a custom column `{ header, cell: (row) => ... }`.
 * `low(column)` marks a column that folds away on narrow screens (see fold.ts); `wrapped(column)`
 * lets a long text (a title) wrap instead of widening the table.
 */
import { useState, type ReactNode } from 'react'
import { assetUrl } from '#src/lib/api.ts'
import { copyText } from '#src/lib/copy-text.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '../form/error-message.ts'
import { When } from './when.tsx'

export type CellKind = 'text' | 'mono' | 'date' | 'image' | 'yesno'

/** `low`: folded away on a narrow table (a tablet) and shown in the view modal instead. */
export type Priority = 'low'

export interface KeyColumn<K extends string> {
  kind: CellKind
  key: K
  header: string
  /** image: the field whose text describes the picture (its alt text). */
  altKey?: K
  /** image: the field holding the small preview a table shows instead of the original. */
  thumbKey?: K
  /** What an empty value shows instead of the kind's own ('--', 'No image'); see `withEmpty`. */
  empty?: string
  priority?: Priority
  /** text: wraps within a bounded width, up to three lines, instead of staying on one line (see `wrapped`). */
  wrap?: boolean
}

export interface CustomColumn<R> {
  header: string
  cell: (row: R) => ReactNode
  /** The list's sortable column this one shows (a key column sorts by its own key). */
  sortBy?: string
  /** Visually hidden header text, for action-like columns whose content explains itself. */
  srOnlyHeader?: boolean
  priority?: Priority
}

/** The S.No column of the lists (requirements R2): the row's position across pages. */
export interface SerialColumn {
  kind: 'serial'
  header: string
  priority?: Priority
}

export type Column<R> = KeyColumn<keyof R & string> | CustomColumn<R> | SerialColumn

/** Marks a column as the first to fold away when the table is narrow (Leads' wallet address). */
export const low = <C extends { header: string; priority?: Priority }>(column: C): C => ({ ...column, priority: 'low' })

/**
 * A text column whose long values (a title of up to 200 characters) wrap, up to three lines, rather
 * than widen the table until the columns after it (a send's status) scroll out of sight beside the
 * Action column; the view modal shows the whole text. It stays the record's name for screen readers.
 */
export const wrapped = <C extends KeyColumn<string>>(column: C): C => ({ ...column, wrap: true })

/** Plain text; an empty value shows '--' (as requirements R2.14 asks for an empty operating system). */
export const col = <K extends string>(key: K, header: string): KeyColumn<K> => ({ kind: 'text', key, header })
/** Identifiers such as wallet addresses: monospaced; shortened in tables (see IdText), whole in the view modal. */
export const mono = <K extends string>(key: K, header: string): KeyColumn<K> => ({ kind: 'mono', key, header })
export const date = <K extends string>(key: K, header: string): KeyColumn<K> => ({ kind: 'date', key, header })
export const yesNo = <K extends string>(key: K, header: string): KeyColumn<K> => ({ kind: 'yesno', key, header })
/**
 * An image; with `thumbKey` a table shows that field's small preview (made by the server on upload)
 * and falls back to the original when a record has none (uploaded before previews existed).
 */
export const image = <K extends string>(key: K, header: string, altKey?: K, thumbKey?: K): KeyColumn<K> => ({
  kind: 'image',
  key,
  header,
  ...(altKey === undefined ? {} : { altKey }),
  ...(thumbKey === undefined ? {} : { thumbKey }),
})

/** A column that says `text` where a record has no value ('No image in this promotion'). */
export const withEmpty = <C extends KeyColumn<string>>(column: C, text: string): C => ({ ...column, empty: text })

/** A table's image: the preview when there is one, the original if the preview fails to load. */
function TableImage({ src, fallback, alt }: { src: string; fallback: string; alt: string }) {
  const [failed, setFailed] = useState(false)
  return (
    <img
      src={assetUrl(failed ? fallback : src)}
      alt={alt}
      loading="lazy"
      width={48}
      height={48}
      onError={() => (failed || src === fallback ? undefined : setFailed(true))}
      className="size-12 rounded border border-slate-200 bg-slate-50 object-cover"
    />
  )
}
export const serial = (header = 'S.No'): SerialColumn => ({ kind: 'serial', header })

export const isCustom = <R,>(c: Column<R>): c is CustomColumn<R> => 'cell' in c

/** The sortable column a table column shows, if it is one of `columns` (the list's sortable ones). */
export function sortColumnOf<R>(c: Column<R>, columns: readonly string[]): string | undefined {
  const name = isCustom(c) ? c.sortBy : c.kind === 'serial' ? undefined : c.key
  return name !== undefined && columns.includes(name) ? name : undefined
}

export interface KeyField<K extends string> {
  key: K
  label: string
  kind: CellKind
}
export interface CustomField<R> {
  label: string
  value: (row: R) => ReactNode
}
/** One line of a view modal. */
export type ViewField<R> = KeyField<keyof R & string> | CustomField<R>
export const field = <K extends string>(key: K, label: string, kind: CellKind = 'text'): KeyField<K> => ({ key, label, kind })

const asText = (value: unknown): string => {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** Characters of a long identifier a table shows before its ellipsis. */
export const SHORT_ID_LENGTH = 8

/**
 * `0x529084…`: a long identifier as every table shows it, its first characters and an ellipsis
 * (ids and addresses differ early: a Mongo id's first characters are its creation time).
 */
export const shortId = (text: string, keep = SHORT_ID_LENGTH): string => (text.length <= keep + 1 ? text : `${text.slice(0, keep)}…`)

/**
 * A table's identifier: shortened on screen with the whole value in its tooltip and for screen
 * readers, and a button that copies the whole value ('Copied').
 */
/** Copies a value whole and says so (or why not): the id cells' and the record pages' Copy buttons. */
export async function copyAndSay(value: string): Promise<void> {
  try {
    await copyText(value)
    toast.success('Copied')
  } catch (error) {
    toast.error(`Could not copy: ${errorMessage(error)}`)
  }
}

export function IdText({ value, label }: { value: string; label: string }) {
  if (value === '') return '--'
  const short = shortId(value)
  const copy = () => copyAndSay(value)
  return (
    <span className="inline-flex items-center gap-0.5 whitespace-nowrap">
      {short === value ? (
        <span className="font-mono text-xs">{value}</span>
      ) : (
        <>
          <span aria-hidden="true" title={value} className="font-mono text-xs">
            {short}
          </span>
          <span className="sr-only">{value}</span>
        </>
      )}
      <button
        type="button"
        aria-label={`Copy ${label}`}
        title={`Copy ${label}`}
        onClick={() => void copy()}
        className="inline-flex size-5 shrink-0 items-center justify-center rounded text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round">
          <rect x="9" y="9" width="12" height="12" rx="2" />
          <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
        </svg>
      </button>
    </span>
  )
}

/**
 * Renders one value the way its kind asks; `alt` describes an image, or names an identifier for its
 * copy button. In a table (`compact`) long identifiers are shortened on screen (IdText).
 */
export function renderValue(kind: CellKind, value: unknown, alt = '', compact = false, thumb = '', empty?: string): ReactNode {
  const text = asText(value)
  if (empty !== undefined && text === '') return empty
  switch (kind) {
    case 'yesno':
      return value === true || text === 'true' ? 'Yes' : 'No'
    case 'date':
      return <When at={text} />
    case 'image':
      if (text && compact && thumb) return <TableImage src={thumb} fallback={text} alt={alt} />
      return text ? (
        <img
          src={assetUrl(text)}
          alt={alt}
          loading="lazy"
          className="size-12 rounded border border-slate-200 bg-slate-50 object-cover"
        />
      ) : (
        'No image'
      )
    case 'mono':
      if (!text) return '--'
      if (!compact) return <span className="font-mono text-xs break-all">{text}</span>
      return <IdText value={text} label={alt} />
    case 'text':
      return text === '' ? '--' : text
  }
}

/** One line of an open view modal: its label and the rendered value. */
export interface ViewLine {
  label: string
  content: ReactNode
}

/** The view modal's lines for a record. */
export const viewLines = <R,>(fields: readonly ViewField<R>[], row: R): ViewLine[] =>
  fields.map((f) => ({ label: f.label, content: 'value' in f ? f.value(row) : renderValue(f.kind, row[f.key], f.label) }))
