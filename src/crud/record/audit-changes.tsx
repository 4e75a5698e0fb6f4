/**
 * What one audit entry changed, field by field (contract/audit.ts, AuditChange): a table per
 * record with each field's value before and after. A long text shows once, its removed words
 * struck through and its added words marked, so a one-word edit of a template is found at a
 * glance. A secret shows only that it changed. The Audit Log's entry view and a record's
 * History both show it.
 */
import type { AuditChange, AuditEntry, AuditField } from '#contract/audit'
import { isLongText, textDiff } from './text-diff.ts'

const OPS: Record<AuditChange['op'], string> = { create: 'Created', update: 'Changed', delete: 'Deleted' }

/** A column name as words: 'discord_link' reads 'Discord link'. */
export const fieldLabel = (name: string): string => {
  const words = name.replaceAll('_', ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function Value({ value }: { value: string | null }) {
  if (value === null || value === '') return <span className="text-slate-600 italic">empty</span>
  return <span className="break-all whitespace-pre-wrap">{value}</span>
}

/** A long text's change, shown once: removed words struck through, added ones marked. */
function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <span className="break-all whitespace-pre-wrap">
      {textDiff(before, after).map((part, i) =>
        part.kind === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === 'removed' ? (
          <del key={i} className="bg-red-100 text-red-900" title="Removed">
            {part.text}
          </del>
        ) : (
          <ins key={i} className="bg-green-100 text-green-900 no-underline" title="Added">
            {part.text}
          </ins>
        ),
      )}
    </span>
  )
}

function FieldRow({ field: f }: { field: AuditField }) {
  const head = (
    <th scope="row" className="py-1 pr-3 text-left align-top font-medium text-slate-900">
      {fieldLabel(f.field)}
    </th>
  )
  // A secret's values were never kept; a long text reads best as one diff across both columns.
  const long = !f.secret && f.before !== null && f.after !== null && (isLongText(f.before) || isLongText(f.after))
  return (
    <tr>
      {head}
      {f.secret ? (
        <td colSpan={2} className="py-1 text-slate-700 italic">
          changed (secret, not shown)
        </td>
      ) : long ? (
        <td colSpan={2} className="py-1 align-top">
          <TextDiff before={f.before ?? ''} after={f.after ?? ''} />
        </td>
      ) : (
        <>
          <td className="py-1 pr-3 align-top text-slate-700">
            <Value value={f.before} />
          </td>
          <td className="py-1 align-top text-slate-900">
            <Value value={f.after} />
          </td>
        </>
      )}
    </tr>
  )
}

/** One record's change as a table of its fields. */
export function ChangeTable({ change, labels = { before: 'Before', after: 'After' } }: { change: AuditChange; labels?: { before: string; after: string } }) {
  return (
    <table className="w-full text-sm" data-testid="audit-change">
      <caption className="pb-1 text-left text-xs text-slate-600">
        {OPS[change.op]}: {change.table} {change.record}
      </caption>
      <thead>
        <tr>
          <th scope="col" className="pr-3 text-left text-xs font-medium text-slate-600">
            Field
          </th>
          <th scope="col" className="pr-3 text-left text-xs font-medium text-slate-600">
            {labels.before}
          </th>
          <th scope="col" className="text-left text-xs font-medium text-slate-600">
            {labels.after}
          </th>
        </tr>
      </thead>
      <tbody>
        {change.fields.map((f) => (
          <FieldRow key={f.field} field={f} />
        ))}
      </tbody>
    </table>
  )
}

/** The entry's changes; nothing when it kept none (a sign-in event, a row from before changes were kept). */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return null
  return (
    <div className="flex flex-col gap-3">
      {entry.changes.map((c) => (
        <ChangeTable key={`${c.table}:${c.record}`} change={c} />
      ))}
      {entry.changesPartial ? <p className="text-xs text-slate-600">More records changed than the log keeps: these are the first.</p> : null}
    </div>
  )
}

/** The changed fields in a few words, for a list cell: 'Discord link, Twitter link'. */
export function changedFieldsSummary(entry: AuditEntry): string {
  const names = [...new Set(entry.changes.flatMap((c) => c.fields.map((f) => fieldLabel(f.field))))]
  if (names.length === 0) return '--'
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
}
