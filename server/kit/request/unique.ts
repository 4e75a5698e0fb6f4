/**
 * The uniqueness guard: "X already exists" under the field that holds X, whatever its case.
 *
 *     const categoryNames = uniqueField({ column: categories.categoryName, id: categories.id,
 *       index: 'categories_name_key', field: 'categoryName', message: 'categoryName already exists' })
 *
 *     const taken = await categoryNames.check(ctx.db, categoryName, exceptId)
 *     if (taken !== null) return taken
 *     await categoryNames.guard(() => ctx.db.insert(categories).values(...))
 *
 * `check` answers the common case with a clear message before anything is written; `guard` covers
 * the race it cannot see (two saves of one name at once): the loser's unique-index violation
 * (SQLSTATE 23505 on this field's index) becomes the same answer instead of a 500.
 */
import { and, ne, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { failure, type ApiFailure } from './answers.ts'
import { sqlState, type Db } from '../../db/index.ts'

export interface UniqueRule {
  /** The unique column; compared lower-cased on both sides. */
  column: PgColumn
  /** The table's id column, to leave the record being edited out of the comparison. */
  id: PgColumn
  /** The unique index that enforces it (on `lower(column)`, or on a column stored lower-cased). */
  index: string
  /** The payload field the message goes under. */
  field: string
  message: string
}

export interface UniqueField {
  /** The answer for a taken value: 400 with the message under the field. */
  taken(): ApiFailure
  /** The answer when `value` is taken by another record than `exceptId`, else null. */
  check(db: Db, value: string, exceptId?: string): Promise<ApiFailure | null>
  /** Runs a write; a violation of this field's unique index is thrown as `taken()`. */
  guard<T>(write: () => Promise<T>): Promise<T>
}

export function uniqueField(rule: UniqueRule): UniqueField {
  const taken = (): ApiFailure => failure(rule.message, { [rule.field]: rule.message })
  return {
    taken,
    async check(db, value, exceptId) {
      const same = sql`lower(${rule.column}) = lower(${value})`
      const n = await db.$count(rule.column.table, exceptId === undefined ? same : and(same, ne(rule.id, exceptId)))
      return n > 0 ? taken() : null
    },
    async guard(write) {
      try {
        return await write()
      } catch (error) {
        if (sqlState(error) === '23505' && violatedIndex(error) === rule.index) throw taken()
        throw error
      }
    },
  }
}

/** The index a unique violation names (both drivers report it as `constraint`), looking through drizzle's wrapper. */
export function violatedIndex(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const constraint: unknown = 'constraint' in e ? e.constraint : undefined
    if (typeof constraint === 'string') return constraint
  }
  return null
}
