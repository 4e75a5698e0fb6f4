/**
 * The staff audit log's reads (contract/audit.ts): the list with its filters (one record's
 * history among them: the edit pages' History), the CSV export, and the revert of one entry's
 * change (server/kit/request/audit-revert.ts). Rows are written by the registrar (server/kit/request/api.ts) and
 * the sign-in code (server/kit/ground/access/events.ts); nothing here changes a row, and the database
 * refuses changes to written rows.
 */
import { Readable } from 'node:stream'
import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import * as audit from '#contract/audit'
import { AUDIT_EVENTS, LINK_CHANGE_HELD, REVERTED, auditEventName, type AuditEntry, type AuditFilter } from '#contract/audit'
import { login } from '#contract/auth'
import { approveLinkChange } from '#contract/link-changes'
import { isWrite, type Endpoint } from '#contract/define'
import type { FoundRecord } from '#contract/search'
import { handlers } from '../../kit/request/handlers.ts'
import { FileAnswer } from '../../kit/request/answers.ts'
import { type ContractIndex } from '../../kit/ground/services.ts'
import { namedRecords } from '../../kit/request/record-search.ts'
import { StoredChanges, shownChanges } from '../../kit/request/audit-changes.ts'
import { mayRevert, revertEntry } from '../../kit/request/audit-revert.ts'
import { containsPattern, listPage } from '../../kit/request/paging.ts'
import { csvLine, neutralise } from '../../kit/ground/csv.ts'
import { undoBulkFromAudit, undoableBulkRows } from '../../kit/request/bulk.ts'
import type { Db } from '../../db/index.ts'
import { admins, auditLog, type AdminRow } from '../../db/schema.ts'
import { permits } from '../../kit/ground/access/auth.ts'

const eventKeys = new Set(Object.keys(AUDIT_EVENTS))

/** Every action the log can hold, with its area's name, and the actions that change something. */
interface AuditAreas {
  actionArea: ReadonlyMap<string, string>
  writes: readonly string[]
  /** The served calls by path: an action's words are its call's `logAs`. */
  byPath: ReadonlyMap<string, Endpoint>
}

/**
 * The log's areas from the served contract (server/kit/request/areas.ts): endpoint paths by the label
 * their area declares, and the sign-in events under the sign-in area's. Worked out once per
 * contract, on the first call that needs it.
 */
const auditAreasOf = (() => {
  const made = new WeakMap<ContractIndex, AuditAreas>()
  return (contract: ContractIndex): AuditAreas => {
    const earlier = made.get(contract)
    if (earlier !== undefined) return earlier
    const actionArea = new Map<string, string>()
    const byPath = new Map<string, Endpoint>()
    for (const e of contract.endpoints) {
      byPath.set(e.path, e)
      const label = contract.areaLabels.get(e)
      if (e.method === 'POST' && label !== undefined) actionArea.set(e.path, label)
    }
    const signIn = contract.areaLabels.get(login) ?? ''
    // A held link change is the link changes area's, where it is decided; the other events are sign-in's.
    for (const event of eventKeys) actionArea.set(event, event === LINK_CHANGE_HELD ? (contract.areaLabels.get(approveLinkChange) ?? signIn) : signIn)
    // Actions a staff member takes that change something: POST writes and the public sign-in calls.
    const isWriteAction = (path: string): boolean => {
      const e = byPath.get(path)
      return e !== undefined && (isWrite(e) || e.access.kind !== 'screen')
    }
    const areas = { actionArea, writes: [...actionArea.keys()].filter((a) => eventKeys.has(a) || isWriteAction(a)), byPath }
    made.set(contract, areas)
    return areas
  }
})()

const areaOf = (areas: AuditAreas, action: string): string => areas.actionArea.get(action) ?? ''
const eventOf = (areas: AuditAreas, action: string): string => auditEventName(action, (path) => areas.byPath.get(path))
const actionsOf = (areas: AuditAreas, area: string): string[] => [...areas.actionArea].filter(([, a]) => a === area).map(([action]) => action)

/** The where clause of the filters and the search ('' is any). */
function auditWhere(areas: AuditAreas, filter: AuditFilter, search: string): SQL | undefined {
  const parts: (SQL | undefined)[] = []
  if (filter.admin !== '') parts.push(eq(auditLog.adminId, filter.admin))
  if (filter.area !== '') {
    const actions = actionsOf(areas, filter.area)
    parts.push(actions.length === 0 ? sql`false` : inArray(auditLog.action, actions))
  }
  if (filter.action !== '') parts.push(eq(auditLog.action, filter.action))
  // The record index (audit_log_record_idx) answers this one, newest first.
  if (filter.record !== '') parts.push(eq(auditLog.recordId, filter.record))
  if (filter.from !== '') parts.push(gte(auditLog.at, new Date(`${filter.from}T00:00:00Z`)))
  if (filter.to !== '') parts.push(lt(auditLog.at, new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000)))
  if (search !== '') {
    const p = containsPattern(search)
    parts.push(or(ilike(auditLog.action, p), ilike(auditLog.recordId, p), ilike(auditLog.ip, p), ilike(auditLog.detail, p)))
  }
  const present = parts.filter((p): p is SQL => p !== undefined)
  return present.length === 0 ? undefined : and(...present)
}

type AuditRow = typeof auditLog.$inferSelect
type Staff = Map<string, { name: string; email: string }>

async function staffOf(db: Db, rows: readonly AuditRow[]): Promise<Staff> {
  const ids = [...new Set(rows.map((r) => r.adminId).filter((id): id is string => id !== null))]
  if (ids.length === 0) return new Map()
  const found = await db.select({ id: admins.id, name: admins.name, email: admins.email }).from(admins).where(inArray(admins.id, ids))
  return new Map(found.map((a) => [a.id, { name: a.name, email: a.email }]))
}

/** What the list's reader may see and do of a row: its changes, its revert. The export shows neither. */
interface ReaderRights {
  sees: (row: AuditRow) => boolean
  reverts: (row: AuditRow) => boolean
}
const NO_RIGHTS: ReaderRights = { sees: () => false, reverts: () => false }

/**
 * The reader's rights from the row's call: its changes show to those who may open the call's
 * screen (the log's other readers would otherwise read every screen's data through it), and to
 * the superadmin; a call of no screen (a profile's own edit, a sign-in) only to the superadmin.
 */
function rightsOf(areas: AuditAreas, me: AdminRow, bulkUndoable: ReadonlySet<string> = new Set()): ReaderRights {
  const callOf = (path: string): Endpoint | undefined => areas.byPath.get(path)
  return {
    sees: (row) => {
      if (me.role === 'superadmin') return true
      const access = callOf(row.action)?.access
      return access?.kind === 'screen' && permits({ kind: 'screen', route: access.route, write: false, ...(access.staff === true ? { staff: true } : {}) }, me)
    },
    // A bulk action's Apply keeps no changes: it is reverted by its run's one undo, while that lasts.
    reverts: (row) => mayRevert(row, callOf, me) || (bulkUndoable.has(row.id) && permits(audit.revertAuditEntry.access, me)),
  }
}

/** A row as the list shows it to a reader with `rights`. */
function entry(areas: AuditAreas, row: AuditRow, staff: Staff, named: ReadonlyMap<string, FoundRecord> = new Map(), rights: ReaderRights = NO_RIGHTS): AuditEntry {
  const who = row.adminId === null ? undefined : staff.get(row.adminId)
  const record = row.recordId === null ? undefined : named.get(row.recordId)
  return {
    _id: row.id,
    at: row.at.toISOString(),
    adminId: row.adminId ?? '',
    adminName: who?.name ?? '',
    adminEmail: who?.email ?? '',
    action: row.action,
    event: eventOf(areas, row.action),
    area: areaOf(areas, row.action),
    recordId: row.recordId ?? '',
    recordName: record?.label ?? '',
    recordHref: record?.href ?? '',
    ip: row.ip ?? '',
    detail: row.detail,
    ...(rights.sees(row) ? { ...changesOf(row.changes), changesHidden: false } : { changes: [], changesPartial: false, changesHidden: row.changes !== null }),
    revertible: rights.sees(row) && rights.reverts(row),
  }
}

/** The row's stored changes as the contract tells them. */
function changesOf(stored: unknown): Pick<AuditEntry, 'changes' | 'changesPartial'> {
  if (stored === null || stored === undefined) return { changes: [], changesPartial: false }
  const parsed = StoredChanges.parse(stored)
  return { changes: shownChanges(parsed), changesPartial: parsed.partial }
}

const EXPORT_BATCH = 2000
const CSV_COLUMNS = ['When (UTC)', 'Name', 'Email', 'Area', 'Action', 'Record', 'Address', 'Detail']

/** Newest first in keyset batches on (at, id): each batch is an index range, memory stays flat. */
async function* auditCsv(areas: AuditAreas, db: Db, where: SQL | undefined): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS)
  let after: string | null = null
  for (;;) {
    // The cursor's time is read by the database: a JavaScript Date keeps milliseconds, PostgreSQL
    // microseconds, and rows written in one statement share one time.
    const cursor: SQL | undefined = after === null ? undefined : sql`(${auditLog.at}, ${auditLog.id}) < (select a.created_at, a.id from audit_log a where a.id = ${after})`
    const rows: AuditRow[] = await db
      .select()
      .from(auditLog)
      .where(and(where, cursor))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(EXPORT_BATCH)
    if (rows.length === 0) return
    const staff = await staffOf(db, rows)
    yield rows
      .map((row) => {
        const e = entry(areas, row, staff)
        return csvLine([e.at, ...[e.adminName, e.adminEmail, e.area, e.action, e.recordId, e.ip, e.detail].map(neutralise)])
      })
      .join('')
    const last = rows[rows.length - 1]
    if (last === undefined || rows.length < EXPORT_BATCH) return
    after = last.id
  }
}

export const auditRoutes = handlers(audit, {
  listAudit: async (query, ctx) => {
    const areas = auditAreasOf(ctx.contract)
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(auditLog).$dynamic(),
      search: () => undefined,
      filter: auditWhere(areas, query, query.search),
      orderBy: [desc(auditLog.at), desc(auditLog.id)],
      sort: { at: auditLog.at },
    })
    const staff = await staffOf(ctx.db, rows)
    // Named by the areas' finders, only from screens this reader may open.
    const named = await namedRecords(ctx.finders, ctx.db, ctx.me(), rows.map((r) => r.recordId ?? ''))
    const rights = rightsOf(areas, ctx.me(), await undoableBulkRows(ctx.db, ctx.me(), rows))
    return { status: 'success', message: 'Audit log fetched', result: rows.map((r) => entry(areas, r, staff, named, rights)), count }
  },

  auditOptions: async (_input, ctx) => {
    const staff = await ctx.db.select({ id: admins.id, name: admins.name, email: admins.email }).from(admins).orderBy(asc(admins.name))
    const areas = auditAreasOf(ctx.contract)
    const { actionArea, writes } = areas
    return {
      status: 'success',
      message: 'Audit options fetched',
      admins: staff.map((a) => ({ value: a.id, label: `${a.name} (${a.email})` })),
      areas: [...new Set(actionArea.values())].sort().map((a) => ({ value: a, label: a })),
      actions: writes.map((a) => ({ value: a, label: eventOf(areas, a) })).sort((a, b) => a.label.localeCompare(b.label)),
    }
  },

  revertAuditEntry: async ({ id, force }, ctx) => {
    const bulk = await undoBulkFromAudit(ctx, id)
    if (bulk !== undefined) {
      ctx.audit(bulk.runId)
      ctx.auditDetail(`Reverted a bulk action (entry ${id}): ${bulk.message}`)
      return { status: 'success', message: bulk.message }
    }
    const row = await revertEntry(ctx, id, force === true)
    ctx.audit(row.recordId)
    ctx.auditDetail(`Reverted "${eventOf(auditAreasOf(ctx.contract), row.action)}" of ${row.at.toISOString()} (entry ${row.id})`)
    return { status: 'success', message: REVERTED }
  },

  exportAudit: async (input, ctx) => {
    const areas = auditAreasOf(ctx.contract)
    return new FileAnswer('audit-log.csv', 'text/csv; charset=utf-8', Readable.from(auditCsv(areas, ctx.db, auditWhere(areas, input, input.search)), { objectMode: false }))
  },
})
