import { z } from 'zod/mini'
import { Done, ok } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import * as self from './undo.ts'

/*
 * Undo (ours): a delete (every area: a bulk delete, a link or version cleared, a saved
 * view too) or a freeze answers, beside its message (requirements R8.1), an undo ticket. For `seconds` the
 * admin who made the change (or the superadmin) may call `undo` with its token: the record (every
 * record of a bulk delete) comes back exactly as it was, its place in a preference order included,
 * or the cleared value is written back. A bulk action's run (contract/bulk.ts) ends with one such
 * ticket for every row it changed. The server keeps the record and its files a few seconds
 * longer than it tells, then purges them.
 */

/** What an undoable answer carries: the token `undo` takes, and how long the Undo is offered. */
export const UndoTicket = z.object({ token: z.string(), seconds: z.number().check(z.int(), z.positive()) })
export type UndoTicket = z.output<typeof UndoTicket>

/** A delete's answer: the `{ status, message }` of requirements R7.1 plus the undo ticket (ours). */
export const Deleted = ok({ undo: UndoTicket })

/** An undoable answer's own fields beside those of requirements R7 (the freeze answer's `freeze`). */
export const undoable = <S extends z.core.$ZodLooseShape>(shape: S) => ok({ ...shape, undo: UndoTicket })

/** Refusals of `undo`, word for word. */
export const UNDO_EXPIRED = 'This can no longer be undone'
export const UNDO_NOT_YOURS = 'Only the admin who made this change can undo it'
export const UNDO_TAKEN = 'This cannot be undone: a record added since then has the same name'
export const UNDO_ORPHANED = 'This cannot be undone: a record it belongs to has been deleted since'
export const UNDO_GONE = 'This cannot be undone: the record has been deleted since'
export const UNDO_CHANGED = 'This cannot be undone: the value has been changed since'
/** An undo pressed again while the first one is still putting rows back. */
export const UNDO_UNDER_WAY = 'This is being undone already'
/** An undo whose rows stopped moving back halfway (a database error): the server completes it. */
export const UNDO_INTERRUPTED = 'The undo was interrupted; the server completes it shortly'
/** A delete, or a write that depends on the record's rows, while a delete or an undo moves them. */
export const TRASH_BUSY = 'This record is being deleted or restored right now; try again in a moment'
/**
 * An undo that would put back a link users follow while "Two admins for outward links" is on. An
 * undo cannot wait for a second admin: its ticket lives seconds and is its maker's alone. A revert
 * from the Audit Log, or the link added again, waits for the approval instead.
 */
export const undoNeedsSecondAdmin = (link: string): string =>
  `This cannot be undone while "Two admins for outward links" is on: it would put back ${link}, which another admin must approve. Revert the change from the Audit Log, or add the link again: either waits for their approval.`
/** A big delete that stopped halfway: its rows were put back. */
export const DELETE_INTERRUPTED = 'The delete was interrupted and nothing was deleted; please try again'

export const undo = endpoint({
  logAs: 'Undone',
  method: 'POST',
  input: z.object({ token: z.string().check(z.trim(), z.minLength(1, 'token is required'), z.maxLength(64, 'Incorrect format')) }),
  output: Done,
  access: sessionAccess,
  ours:
    'Undoes a delete or a freeze by the token its answer carried, within its seconds: only the admin who made the change ' +
    `(or the superadmin), who must still be allowed that change; later: '${UNDO_EXPIRED}'.`,
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
