/**
 * Delete by id, with the record's stored uploads:
 *
 *     deleteCategory: ({ id }, ctx) =>
 *       deleteRecord(ctx, {
 *         id, message: 'Category deleted successfully',
 *         remove: (db) => db.delete(categories).where(eq(categories.id, id)).returning(),
 *         files: (row) => [row.image],
 *       })
 *
 * The row goes first; its files are removed only once the whole call has succeeded (the handler
 * returned, the audit row is written), so a failure anywhere before that (the delete, a renumber
 * in the same transaction, the audit) leaves both the row and its files. A file left behind by a
 * crash in between is an orphan, never a record pointing at a missing file.
 */
import type { ApiFailure, Ctx } from './api.ts'
import { notFound } from './api.ts'
import type { Db } from '../db/index.ts'

export interface DeleteSpec<R> {
  /** The record's id, named in the audit row. */
  id: string
  /** The payload field that carries the id, for the 404's field error (`id` unless told). */
  field?: string
  /** The success message. */
  message: string
  /** Deletes the record and returns the deleted rows (none: it did not exist). */
  remove: (db: Db) => Promise<readonly R[]>
  /** The stored upload names a deleted row held ('' for none). */
  files?: (row: R) => readonly string[]
}

export async function deleteRecord<R>(ctx: Ctx, spec: DeleteSpec<R>): Promise<{ status: 'success'; message: string } | ApiFailure> {
  const [row] = await spec.remove(ctx.db)
  if (row === undefined) return notFound(spec.field ?? 'id')
  for (const name of spec.files?.(row) ?? []) if (name !== '') ctx.removeUploadLater(name)
  ctx.audit(spec.id)
  return { status: 'success', message: spec.message }
}
