/**
 * What a write changed, field by field, for its audit row (`audit_log.changes`). Nothing is
 * declared per endpoint: the database itself says which rows a call's transaction created,
 * updated or deleted. Statement triggers on the watched tables (migration 0040_audit-changes)
 * add every touched row, as stored, to a transaction-local setting while the registrar has
 * capture on (`startCapture`, at the start of every write's transaction); before the audit row
 * is written the registrar takes them (`takeChanges`), and they become one change per record:
 * the fields that differ, before and after. A create keeps every field it wrote, a delete every
 * field it took, so the row says what was made or lost. A rolled-back savepoint takes its
 * captured rows with it, as the setting is transactional.
 *
 * Secrets are never kept: a column whose name says it holds a password, a secret, a token, a
 * hash or a key is written down as changed, without either value, and revert refuses such a
 * change (it cannot write back what it never kept). Bookkeeping columns (the time of the last
 * update, a form's edit version) are left out: they change on every save and say nothing.
 *
 * What is left out and why: the tables in LEFT_OUT are not watched (the log itself, sessions
 * and sign-in counters, the job and mail queues, the trash, and the per-lead fan-out of a mass
 * send, whose rows number in the millions). A statement touching more than CAPTURE_LIMIT rows is
 * kept in part, and the row says so (`partial`).
 */
import { sql } from 'drizzle-orm'
import { PgTable, getTableConfig, type PgColumn } from 'drizzle-orm/pg-core'
import { is } from 'drizzle-orm'
import { z } from 'zod'
import type { AuditChange } from '#contract/audit'
import type { Db } from '../../db/index.ts'
import * as schema from '../../db/schema.ts'

/** The rows one call's changes keep at most (the triggers' bound, 0040_audit-changes). */
export const CAPTURE_LIMIT = 100

/**
 * The tables whose changes no audit row records, and why. Every other table of the schema is
 * watched (its triggers are made by `audit_changes_watch` in a migration); a test checks both.
 */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  audit_log: 'the log itself, which no call changes',
  login_failures: 'sign-in counters, recorded as sign-in events',
  login_pair_failures: 'sign-in counters, recorded as sign-in events',
  otp_guesses: 'code-guess counters',
  otp_codes: 'one-time codes: secrets',
  password_setups: 'set-password links: secrets',
  passkey_challenges: 'WebAuthn challenges that live a minute',
  session_tokens: 'sessions: a sign-in or sign-out is its own audit event',
  admin_devices: 'devices seen at sign-in',
  mail_outbox: 'the mail queue: what a call sends, not what it changes',
  mail_pace: 'the mail queue pacing',
  mail_events_seen: 'provider webhook deduplication',
  jobs: 'the job queue',
  trash: 'undo machinery; the delete itself is recorded on its table',
  trash_rows: 'undo machinery; the delete itself is recorded on its table',
  bulk_runs: 'bulk actions: the Apply is its own audit row, which names the run',
  bulk_run_rows: 'bulk actions: the rows a run touched, kept here rather than in its audit row',
  row_counts: 'counts kept by triggers',
  send_requests: 'four-eyes counters of recipients asked for',
  link_changes: 'writes held for a second admin: their request, approval, rejection and withdrawal are each an audit row with the diff',
  newsletter_recipients: 'the per-lead fan-out of a send (millions of rows)',
  promotion_recipients: 'the per-lead fan-out of a send (millions of rows)',
  promotion_deliveries: 'the per-lead fan-out of a send (millions of rows)',
  lead_notifications: 'the per-lead fan-out of a send (millions of rows)',
}

/** A field's value as the row stored it (to_jsonb). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
const JsonValue: z.ZodType<Json> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]))

/** One field of a change; a secret's values are never kept. */
export const StoredField = z.object({
  field: z.string(),
  before: JsonValue.optional(),
  after: JsonValue.optional(),
  secret: z.literal(true).optional(),
})
export type StoredField = z.output<typeof StoredField>

/** What one write did to one record. */
export const StoredChange = z.object({
  table: z.string(),
  record: z.string(),
  op: z.enum(['create', 'update', 'delete']),
  fields: z.array(StoredField),
})
export type StoredChange = z.output<typeof StoredChange>

/** `audit_log.changes`: a write's changes, and whether some were left out (more rows than kept). */
export const StoredChanges = z.object({ rows: z.array(StoredChange), partial: z.boolean() })
export type StoredChanges = z.output<typeof StoredChanges>

const SECRET = /password|secret|hash|credential|otp|(^|_)token$|(^|_)key$/i

/** A column holding a secret (or what proves one): only its change is told. */
export const isSecretColumn = (name: string): boolean => SECRET.test(name)

/**
 * Columns that only ever move forward: an admin's token version, whose raise ended their sessions.
 * Shown like any field, never written back by a revert (an old version would make the tokens it
 * revoked good again).
 */
export const isOneWay = (name: string): boolean => name === 'token_version'

const tables: readonly PgTable[] = Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable))
export const tableNamed: ReadonlyMap<string, PgTable> = new Map(tables.map((t) => [getTableConfig(t).name, t]))

/** A table's one-column primary key. */
export const keyOf = (table: PgTable): PgColumn | undefined => getTableConfig(table).columns.find((c) => c.primary)

/** Columns that change with every save and say nothing of it: the last update's time, a form's edit version. */
export function isBookkeeping(table: string, column: string): boolean {
  if (column === 'updated_at') return true
  if (column !== 'version' && column !== 'revision') return false
  const found = tableNamed.get(table)
  const col = found === undefined ? undefined : getTableConfig(found).columns.find((c) => c.name === column)
  return col?.dataType === 'number'
}

/** The watched tables with their key column: every table of the schema but those left out. */
export function watchedTables(): Map<string, string> {
  const watched = new Map<string, string>()
  for (const [name, table] of tableNamed) {
    if (Object.hasOwn(LEFT_OUT, name)) continue
    const key = keyOf(table)
    if (key !== undefined) watched.set(name, key.name)
  }
  return watched
}

/** Turns capture on for the rest of the transaction `tx` (the write's own). */
export async function startCapture(tx: Db): Promise<void> {
  await tx.execute(sql`select set_config('audit.capture', 'on', true), set_config('audit.changes', '', true), set_config('audit.partial', '', true)`)
}

const Captured = z.object({ rows: z.array(z.object({ changes: z.string().nullable(), partial: z.string().nullable() })) })
const Raw = z.array(
  z.object({
    table: z.string(),
    op: z.enum(['create', 'update', 'delete']),
    old: z.record(z.string(), JsonValue).nullish(),
    new: z.record(z.string(), JsonValue).nullish(),
  }),
)
type Row = Record<string, Json>

/** One record's net change over the whole call: its row before the first statement and after the last. */
interface Net {
  table: string
  record: string
  op: 'create' | 'update' | 'delete'
  old: Row | null
  new: Row | null
}

/**
 * The rows the transaction's statements touched so far, as one change per record (a row updated
 * twice is one update; created then deleted, nothing), and capture stops: what follows (the audit
 * row) is not the call's change. Null when nothing was captured.
 */
export async function takeChanges(tx: Db): Promise<StoredChanges | null> {
  const [got] = Captured.parse(
    await tx.execute(sql`select current_setting('audit.changes', true) as changes, current_setting('audit.partial', true) as partial, set_config('audit.capture', '', true) as off`),
  ).rows
  return changesOf(got)
}

/** The changes captured so far, as takeChanges, with capture left on (the call goes on). */
export async function peekChanges(tx: Db): Promise<StoredChanges | null> {
  const [got] = Captured.parse(await tx.execute(sql`select current_setting('audit.changes', true) as changes, current_setting('audit.partial', true) as partial`)).rows
  return changesOf(got)
}

function changesOf(got: z.output<typeof Captured>['rows'][number] | undefined): StoredChanges | null {
  if (got === undefined || got.changes === null || got.changes === '') return null
  const rows = netChanges(Raw.parse(JSON.parse(got.changes)))
    .map(describe)
    .filter((c): c is StoredChange => c !== null)
  return rows.length === 0 ? null : { rows, partial: got.partial === 'on' }
}

function netChanges(raw: z.output<typeof Raw>): Net[] {
  const byRecord = new Map<string, Net>()
  const order: string[] = []
  for (const r of raw) {
    const table = tableNamed.get(r.table)
    const key = table === undefined ? undefined : keyOf(table)
    if (key === undefined) continue
    const row = (r.new ?? r.old) as Row | null | undefined
    const record = row?.[key.name]
    if (record === undefined || record === null) continue
    const id = `${r.table}\u0000${String(record)}`
    const was = byRecord.get(id)
    const old = (r.old ?? null) as Row | null
    const now = (r.new ?? null) as Row | null
    if (was === undefined) {
      byRecord.set(id, { table: r.table, record: String(record), op: r.op, old, new: now })
      order.push(id)
    } else if (r.op === 'update') {
      was.new = now
    } else if (r.op === 'delete') {
      if (was.op === 'create') byRecord.delete(id)
      else Object.assign(was, { op: 'delete', new: null })
    } else {
      // Deleted and made again within the call (a list saved whole): one update.
      Object.assign(was, was.old === null ? { op: 'create', new: now } : { op: 'update', new: now })
    }
  }
  return order.map((id) => byRecord.get(id)).filter((n): n is Net => n !== undefined)
}

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** A net change as its fields; null when only bookkeeping changed. */
function describe(net: Net): StoredChange | null {
  const table = tableNamed.get(net.table)
  const key = table === undefined ? undefined : keyOf(table)?.name
  // In the table's own column order (jsonb keeps its keys sorted by length).
  const order = table === undefined ? [] : getTableConfig(table).columns.map((c) => c.name)
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length)
  const names = [...new Set([...Object.keys(net.old ?? {}), ...Object.keys(net.new ?? {})])]
    .filter((n) => n !== key && !isBookkeeping(net.table, n))
    .sort((a, b) => rank(a) - rank(b))
  const fields: StoredField[] = []
  for (const field of names) {
    const before = net.old?.[field]
    const after = net.new?.[field]
    if (net.op === 'update' && same(before, after)) continue
    if (isSecretColumn(field)) {
      // A create or delete tells a secret was there; an update, that it changed.
      if (net.op !== 'update' && (net.op === 'create' ? after : before) === null) continue
      fields.push({ field, secret: true })
      continue
    }
    fields.push({ field, ...(net.old === null ? {} : { before: before ?? null }), ...(net.new === null ? {} : { after: after ?? null }) })
  }
  if (fields.length === 0) return null
  return { table: net.table, record: net.record, op: net.op, fields }
}

/** A stored value as the screens show it: text as it is, anything else (a list, a number) as JSON. */
const shown = (value: Json | undefined): string | null => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value))

/** Stored changes as the contract tells them (contract/audit.ts AuditChange): values as text. */
export const shownChanges = (stored: StoredChanges): AuditChange[] =>
  stored.rows.map((c) => ({ ...c, fields: c.fields.map((f) => ({ field: f.field, before: shown(f.before), after: shown(f.after), secret: f.secret === true })) }))
