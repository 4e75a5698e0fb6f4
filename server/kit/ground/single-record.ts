/**
 * Areas that hold exactly one record (social links, site settings) create it on first use rather
 * than at install time, so an existing database needs no seeding step. Two first calls racing
 * must not create two records: creation runs under a transaction-scoped advisory lock named after
 * the table, and looks again once it holds the lock.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'

export interface SingleRecord<R> {
  /** The table's name, which also names the lock. */
  table: string
  /** The record, or undefined when none was saved yet. */
  read: (db: Db) => Promise<R | undefined>
  /** Inserts a record with the columns' defaults and returns it. */
  create: (db: Db) => Promise<R | undefined>
}

/** The one record, created (empty) when there is none yet. */
export async function singleRecord<R>(db: Db, record: SingleRecord<R>): Promise<R> {
  const existing = await record.read(db)
  if (existing !== undefined) return existing
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`single-record:${record.table}`}))`)
    const created = (await record.read(tx)) ?? (await record.create(tx))
    if (created === undefined) throw new Error(`${record.table}: the insert returned no row`)
    return created
  })
}
