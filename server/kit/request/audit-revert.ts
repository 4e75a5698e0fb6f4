/**
 * Revert one audit entry (contract/audit.ts, `revertAuditEntry`): its kept changes
 * (server/kit/request/audit-changes.ts) played backwards, in the call's own transaction, so the revert is
 * a write like any other, with its own audit row and changes. An update's changed fields get
 * their before values, a deleted row is inserted again with the fields it had, a created row is
 * deleted. Nothing is declared per call or per table: the entry says which table and record.
 *
 * Who may: the reader must hold the Audit Log's write access (the endpoint's rule) and the access
 * the entry's own call needs now (`permits`, as undo checks its delete's rule); the endpoint is a
 * step-up call. An entry that kept only part of its rows, or changed a secret, cannot be played
 * back, nor can a call that is not a screen's write (a sign-in, an undo) or another revert.
 *
 * A record that changed since the entry (a field differs from the entry's after value, a deleted
 * record came back, an updated one is gone) is refused with 409 and the values now, unless
 * `force`: then the before values are written over the newer change. A record gone since cannot
 * have fields written back, forced or not.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import {
  REVERT_A_REVERT,
  REVERT_BLOCKED,
  REVERT_CONFLICT,
  REVERT_GONE,
  REVERT_NOTHING,
  REVERT_NOT_A_WRITE,
  REVERT_PARTIAL,
  REVERT_REFERENCED,
  REVERT_SECRET,
  revertAuditEntry,
  type AuditChange,
} from '#contract/audit'
import type { Endpoint } from '#contract/define'
import { sqlState, type Db } from '../../db/index.ts'
import { auditLog, trash, type AdminRow } from '../../db/schema.ts'
import { FORBIDDEN, permits } from '../ground/access/auth.ts'
import { ApiFailure, failure, notFound } from './answers.ts'
import { type Ctx } from './handlers.ts'
import { linksOfRow, refusedStoredLink } from './outward-links.ts'
import { StoredChanges, isBookkeeping, isOneWay, keyOf, tableNamed, type Json, type StoredChange } from './audit-changes.ts'

type AuditRow = typeof auditLog.$inferSelect

/** Why an entry cannot be reverted by anyone, or null when it can be tried. */
export function unrevertable(row: Pick<AuditRow, 'action' | 'changes'>, callOf: (path: string) => Endpoint | undefined): { status: number; message: string } | null {
  if (row.changes === null) return { status: 400, message: REVERT_NOTHING }
  const stored = StoredChanges.parse(row.changes)
  if (stored.rows.length === 0) return { status: 400, message: REVERT_NOTHING }
  if (row.action === revertAuditEntry.path) return { status: 400, message: REVERT_A_REVERT }
  const call = callOf(row.action)
  if (call === undefined || call.access.kind !== 'screen' || !call.access.write) return { status: 400, message: REVERT_NOT_A_WRITE }
  if (stored.partial) return { status: 400, message: REVERT_PARTIAL }
  if (stored.rows.some((c) => c.fields.some((f) => f.secret === true))) return { status: 400, message: REVERT_SECRET }
  if (stored.rows.some((c) => tableNamed.get(c.table) === undefined)) return { status: 400, message: REVERT_GONE }
  return null
}

/** Whether `admin` may revert the entry: it can be reverted, and they may make its call and the revert. */
export function mayRevert(row: Pick<AuditRow, 'action' | 'changes'>, callOf: (path: string) => Endpoint | undefined, admin: AdminRow): boolean {
  if (unrevertable(row, callOf) !== null) return false
  const call = callOf(row.action)
  return call !== undefined && permits(call.access, admin) && permits(revertAuditEntry.access, admin)
}

const Found = z.object({ rows: z.array(z.object({ row: z.record(z.string(), z.unknown()) })) })

interface Target {
  change: StoredChange
  table: PgTable
  key: PgColumn
  /** The record's row now, locked until the call ends; null when there is none. */
  now: Record<string, Json> | null
}

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
const shown = (value: Json | undefined): string | null => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value))

/** How a record differs now from what the entry left; null when it is as the entry left it. */
function drift({ change, now }: Target): AuditChange | null {
  const base = { table: change.table, record: change.record }
  if (change.op === 'delete') {
    // The entry left no record: one there now is a change since.
    return now === null ? null : { ...base, op: 'create', fields: [] }
  }
  if (now === null) return { ...base, op: 'delete', fields: [] }
  const fields = backable(change)
    .filter((f) => !same(f.after, now[f.field]))
    .map((f) => ({ field: f.field, before: shown(f.after), after: shown(now[f.field]), secret: false }))
  return fields.length === 0 ? null : { ...base, op: 'update', fields }
}

/** The fields a revert writes back: all but those that only move forward. */
const backable = (change: StoredChange): StoredChange['fields'] => change.fields.filter((f) => !isOneWay(f.field))

/** The kept values of `fields` (and the key) as one JSON object, for jsonb_populate_record. */
const valuesOf = (key: PgColumn, record: string, fields: StoredChange['fields'], side: 'before' | 'after'): string =>
  JSON.stringify(Object.fromEntries([[key.name, record], ...fields.map((f) => [f.field, f[side] ?? null])]))

/** The columns a write back raises as any save does: its edit version, its time of update. */
function touched(table: PgTable): SQL[] {
  const name = getTableConfig(table).name
  return getTableConfig(table)
    .columns.filter((c) => isBookkeeping(name, c.name))
    .map((c) => (c.name === 'updated_at' ? sql`${sql.identifier(c.name)} = now()` : sql`${sql.identifier(c.name)} = ${c} + 1`))
}

/** Writes `fields`' before values over the record's row. */
async function writeBack(db: Db, t: Target, fields: StoredChange['fields']): Promise<void> {
  if (fields.length === 0) return
  const kept = sql`jsonb_populate_record(null::${t.table}, ${valuesOf(t.key, t.change.record, fields, 'before')}::jsonb)`
  const assignments = [...fields.map((f) => sql`${sql.identifier(f.field)} = (${kept}).${sql.identifier(f.field)}`), ...touched(t.table)]
  await db.execute(sql`update ${t.table} set ${sql.join(assignments, sql`, `)} where ${eq(t.key, t.change.record)}`)
}

/** How many rows of any table refer to the record now (its one-column foreign keys). */
async function referencesTo(db: Db, t: Target): Promise<number> {
  let n = 0
  for (const other of tableNamed.values()) {
    for (const fk of getTableConfig(other).foreignKeys) {
      const ref = fk.reference()
      const [column] = ref.columns
      const [target] = ref.foreignColumns
      if (ref.columns.length !== 1 || column === undefined || target === undefined || target.table !== t.table) continue
      n += await db.$count(other, eq(column, t.change.record))
    }
  }
  return n
}

/** Plays one change backwards. */
async function playBack(db: Db, t: Target): Promise<void> {
  const { change } = t
  if (change.op === 'update') {
    if (t.now === null) throw failure(REVERT_GONE, undefined, 409)
    await writeBack(db, t, backable(change))
  } else if (change.op === 'create') {
    if (t.now === null) return
    // Its delete would take (or orphan) rows made since that the entry never saw.
    if ((await referencesTo(db, t)) > 0) throw failure(REVERT_REFERENCED, undefined, 409)
    await db.delete(t.table).where(eq(t.key, change.record))
  } else if (t.now === null) {
    const columns = [t.key.name, ...backable(change).map((f) => f.field)].map((c) => sql.identifier(c))
    const kept = sql`jsonb_populate_record(null::${t.table}, ${valuesOf(t.key, change.record, backable(change), 'before')}::jsonb)`
    await db.execute(sql`insert into ${t.table} (${sql.join(columns, sql`, `)}) select ${sql.join(columns, sql`, `)} from ${kept} as kept`)
    // The delete's undo ticket would put the same row back a second time: the revert has done it.
    await db.delete(trash).where(and(eq(trash.recordId, change.record), eq(trash.action, 'delete'), eq(trash.state, 'kept')))
  } else {
    // Forced over a record made again since: its fields get the deleted one's values.
    await writeBack(db, t, backable(change))
  }
}

/**
 * A revert that puts a link users follow back (a link column's before value, server/db/link-columns.ts)
 * is held to the allowed domains as a form's save is (server/kit/request/outward-links.ts), before
 * anything else is said of it: a link to a host taken off the list since does not come back
 * through the audit log. While two admins are asked for outward links the registrar then keeps the
 * revert for a second admin, as any write storing a link (server/kit/request/api.ts).
 */
async function holdLinksToAllowedDomains(db: Db, targets: readonly Target[]): Promise<void> {
  const links = targets
    .filter((t) => t.change.op !== 'create')
    .flatMap((t) => linksOfRow(t.change.table, Object.fromEntries(backable(t.change).map((f) => [f.field, f.before]))))
  const refused = await refusedStoredLink(db, links)
  if (refused !== null) throw failure(refused.message, { id: refused.message })
}

/**
 * Reverts the entry `id` in the call's transaction (a write's handler). Throws the refusal: 404
 * unknown entry, 400 one that cannot be reverted, 403 a reader without the access its call
 * needs, 409 a record changed since (with the values now) unless `force`.
 */
export async function revertEntry(ctx: Ctx, id: string, force: boolean): Promise<AuditRow> {
  const me = ctx.me()
  const [row] = await ctx.db.select().from(auditLog).where(eq(auditLog.id, id))
  if (row === undefined) throw notFound()
  const callOf = (path: string): Endpoint | undefined => ctx.contract.endpoints.find((e) => e.path === path)
  const refusal = unrevertable(row, callOf)
  if (refusal !== null) throw failure(refusal.message, { id: refusal.message }, refusal.status)
  const call = callOf(row.action)
  if (call === undefined || !permits(call.access, me)) throw new ApiFailure(403, FORBIDDEN)
  const changes = StoredChanges.parse(row.changes).rows

  const targets: Target[] = []
  for (const change of changes) {
    const table = tableNamed.get(change.table)
    const key = table === undefined ? undefined : keyOf(table)
    if (table === undefined || key === undefined) throw failure(REVERT_GONE, undefined, 409)
    // Locked until the revert commits: nobody changes the record between the check and the write.
    const [found] = Found.parse(await ctx.db.execute(sql`select to_jsonb(${table}) as row from ${table} where ${inArray(key, [change.record])} for update`)).rows
    targets.push({ change, table, key, now: (found?.row ?? null) as Record<string, Json> | null })
  }
  await holdLinksToAllowedDomains(ctx.db, targets)
  const drifted = targets.map(drift).filter((c): c is AuditChange => c !== null)
  if (drifted.length > 0 && !force) throw new ApiFailure(409, REVERT_CONFLICT, undefined, { current: drifted })

  try {
    await ctx.transaction(async (tx) => {
      // Backwards: a record the call made last is undone first, a parent it deleted last comes back first.
      for (const t of [...targets].reverse()) await playBack(tx, t)
    })
  } catch (error) {
    const state = sqlState(error)
    if (state === '23505' || state === '23503' || state === '23502' || state === '23514') throw failure(REVERT_BLOCKED, undefined, 409)
    throw error
  }
  return row
}
