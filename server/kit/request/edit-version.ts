/**
 * Concurrent edits: a record's edit version, checked and raised by the update itself.
 *
 *     const categoryVersions = editVersion({ id: categories.id, version: categories.version })
 *
 *     const rows = await tx.update(categories)
 *       .set({ categoryName, version: categoryVersions.next })
 *       .where(categoryVersions.matches(id, version))      // version: what the form loaded, or undefined
 *       .returning({ id: categories.id })
 *     if (rows.length === 0) return categoryVersions.missed(ctx.db, id)   // 404 gone, 409 changed
 *
 * The check is part of the UPDATE's own WHERE (`id = $1 and version = $2`), so two saves racing
 * from the same version cannot both pass: the row lock makes the second one re-read the row,
 * which by then holds the first one's version, and it matches nothing. No read-then-write gap.
 * A save without a version (the payloads of requirements R7) is not checked, and still raises the version,
 * so a form opened before it learns of the change.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { RECORD_CHANGED } from '#contract/common'
import type { Db } from '../../db/index.ts'
import { ApiFailure, notFound } from './answers.ts'

export { RECORD_CHANGED }

/** The answer to a save naming an older version: 409, the message under `version` (the form's hidden field). */
export const recordChanged = (): ApiFailure => new ApiFailure(409, RECORD_CHANGED, { version: RECORD_CHANGED })

export interface EditVersion {
  /** `id = $id`, and `version = $expected` when the save sent one. */
  matches(id: string, expected: number | undefined): SQL | undefined
  /** The new value of the version column: one more than the stored one. */
  readonly next: SQL
  /** Why an update matched no row: the record is gone (404 under `idField`), or its version moved on (409). */
  missed(db: Db, id: string, idField?: string): Promise<ApiFailure>
}

/** `scope` narrows the records an id may name (one kind of link of the shared table). */
export function editVersion(columns: { id: PgColumn; version: PgColumn; scope?: SQL }): EditVersion {
  const byId = (id: string): SQL | undefined => and(eq(columns.id, id), columns.scope)
  return {
    matches: (id, expected) => (expected === undefined ? byId(id) : and(byId(id), eq(columns.version, expected))),
    next: sql`${columns.version} + 1`,
    async missed(db, id, idField = 'id') {
      const exists = (await db.$count(columns.id.table, byId(id))) > 0
      return exists ? recordChanged() : notFound(idField)
    },
  }
}
