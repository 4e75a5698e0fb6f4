/**
 * Delete by id, undoably (server/kit/request/undo.ts):
 *
 *     const categoryTrash = restorable({ name: 'categories', table: categories, order: categoryOrder,
 *       endpoint: catalog.deleteCategory, restored: 'Category restored successfully' })
 *
 *     deleteCategory: ({ id }, ctx) =>
 *       deleteRecord(ctx, {
 *         id, message: 'Category deleted successfully', trash: categoryTrash,
 *         remove: (db) => db.delete(categories).where(eq(categories.id, id)).returning({ id: categories.id }),
 *       })
 *
 * The row (with the rows its delete cascades to) goes into the trash in the write's transaction,
 * and the record's order closes the gap; the answer carries the delete's message and an undo
 * ticket. The files the rows held stay until the trash entry is purged after the undo window, so
 * an undo finds them, and a failure anywhere in the call (the delete, the renumber, the audit)
 * leaves the row and its files as they were.
 *
 * A kind whose delete takes other rows with it (a promotion's deliveries, a brand's leads'
 * reference) is declared with `deleting` instead, in place of the handler:
 *
 *     DeletePromotion: deleting(({ id }) => ({ id, message: PROMOTION_DELETED, trash: promotionTrash,
 *       remove: (db) => db.delete(promotions).where(eq(promotions.id, id)).returning({ id: promotions.id }) })),
 *
 * Beyond a batch of such rows, they move into the trash in short transactions of their own before
 * the call's transaction opens (server/kit/request/undo.ts), so other calls are served meanwhile; the
 * call's transaction then takes the record. The answer is the same.
 *
 * A bulk delete (`deleteRecords`, the restricted countries' Delete All) keeps every record it
 * takes in one trash entry, so one Undo brings them all back.
 */
import type { UndoTicket } from '#contract/undo'
import type { ApiFailure } from './answers.ts'
import type { Ctx } from './handlers.ts'
import { notFound } from './answers.ts'
import type { Db } from '../../db/index.ts'
import { NothingTaken, finishTaking, moveAllToTrash, moveToTrash, startTaking, takesDependents, type Restorable } from './undo.ts'

export interface DeleteSpec {
  /** The record's id, named in the audit row. */
  id: string
  /** The payload field that carries the id, for the 404's field error (`id` unless told). */
  field?: string
  /** The success message. */
  message: string
  /** The record's kind: its table, its order, what undo says. */
  trash: Restorable
  /** Deletes the record and returns the deleted rows (none: it did not exist). Runs inside the kind's order. */
  remove: (db: Db) => Promise<readonly unknown[]>
}

type Deleted = { status: 'success'; message: string; undo: UndoTicket }

/** A delete in the call's transaction, for a kind whose records take no other rows with them. */
export async function deleteRecord(ctx: Ctx, spec: DeleteSpec): Promise<Deleted | ApiFailure> {
  if (takesDependents(spec.trash)) throw new Error(`${spec.trash.name}: its delete takes other rows with it; declare it with deleting(...)`)
  return deleteAtOnce(ctx, spec)
}

async function deleteAtOnce(ctx: Ctx, spec: DeleteSpec): Promise<Deleted | ApiFailure> {
  const undo = await moveToTrash(ctx, spec.trash, spec.id, spec.remove)
  if (undo === undefined) return notFound(spec.field ?? 'id')
  ctx.audit(spec.id)
  return { status: 'success', message: spec.message, undo }
}

/**
 * The delete call of a kind whose records take other rows with them (see above): `spec` builds
 * the delete from the call's input (it is asked twice: before the transaction and in it).
 */
export function deleting<I>(spec: (input: I, ctx: Ctx) => DeleteSpec): { prepare: (input: I, ctx: Ctx) => Promise<(ctx: Ctx) => Promise<Deleted | ApiFailure>> } {
  return {
    prepare: async (input, outside) => {
      const first = spec(input, outside)
      const run = await startTaking(outside, first.trash, [first.id])
      return async (ctx) => {
        const s = spec(input, ctx)
        if (run === undefined) return deleteAtOnce(ctx, s)
        try {
          const kept = await finishTaking(ctx, run, s.remove)
          ctx.audit(s.id)
          return { status: 'success', message: s.message, undo: kept.undo }
        } catch (error) {
          // Thrown, not answered: the transaction rolls back and the rows moved before go back.
          if (error instanceof NothingTaken) throw notFound(s.field ?? 'id')
          throw error
        }
      }
    },
  }
}

export interface BulkDeleteSpec {
  /** The records' ids; the audit row names those deleted. */
  ids: readonly string[]
  /** The payload field that carries the ids, for the 404's field error. */
  field: string
  /** The success message, told how many records were deleted. */
  message: (count: number) => string
  /** The records' kind (not in a preference order). */
  trash: Restorable
  /** Deletes the records and returns the deleted rows (none: none existed). */
  remove: (db: Db) => Promise<readonly unknown[]>
}

export async function deleteRecords(ctx: Ctx, spec: BulkDeleteSpec): Promise<{ status: 'success'; message: string; undo: UndoTicket } | ApiFailure> {
  const taken = await moveAllToTrash(ctx, spec.trash, spec.ids, spec.remove)
  if (taken === undefined) return notFound(spec.field)
  ctx.audit(taken.ids.join(','))
  return { status: 'success', message: spec.message(taken.ids.length), undo: taken.undo }
}
