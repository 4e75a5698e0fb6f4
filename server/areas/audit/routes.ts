/**
 * The staff audit log's reads (contract/audit.ts): the list with its filters (one record's
 * history among them: the edit pages' History), the CSV export. Rows are written by the registrar
 * (server/kit/api.ts) and the sign-in code (server/kit/access/events.ts); nothing here writes, and
 * the database refuses changes to written rows.
 */
import { Readable } from 'node:stream'
import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import * as audit from '#contract/audit'
import { AUDIT_EVENTS, auditActionName, type AuditEntry, type AuditFilter } from '#contract/audit'
import { areas } from '#contract/index'
import { isWrite, type Endpoint } from '#contract/define'
import { handlers, FileAnswer } from '../../kit/api.ts'
import { containsPattern, listPage } from '../../kit/paging.ts'
import { csvLine, neutralise } from '../../kit/csv.ts'
import type { Db } from '../../db/index.ts'
import { admins, auditLog } from '../../db/schema.ts'

/** Each contract area's name in the log; a new area must be named here (the type says so). */
const AREA_LABELS: Record<keyof typeof areas, string> = {
  auth: 'Sign-in',
  leads: 'Leads',
  catalog: 'Categories',
  password: 'Passwords',
  emails: 'Automated Emails',
  promotions: 'Messaging',
  links: 'Links',
  social: 'Social links',
  games: 'Games',
  brands: 'Brands',
  restrictions: 'Restricted countries',
  staff: 'Users and Access',
  version: 'Version',
  homepage: 'Home Page Content',
  token: 'Edit Token',
  settings: 'Settings',
  newsletter: 'Newsletter',
  publicPages: 'Public pages',
  twoFactor: 'Two-factor authentication',
  accessRequests: 'Access requests',
  audit: 'Audit Log',
  savedViews: 'Saved views',
  dashboard: 'Dashboard',
  undo: 'Undo',
}

const SIGN_IN = AREA_LABELS.auth
const eventKeys = new Set(Object.keys(AUDIT_EVENTS))
const isEndpoint = (v: unknown): v is Endpoint => typeof v === 'object' && v !== null && 'path' in v && 'method' in v && 'access' in v

/** Every action the log can hold, with its area: endpoint paths by area, and the sign-in events. */
const actionArea = new Map<string, string>()
for (const [key, area] of Object.entries(areas)) {
  const label = new Map<string, string>(Object.entries(AREA_LABELS)).get(key) ?? key
  for (const e of Object.values(area).filter(isEndpoint)) if (e.method === 'POST') actionArea.set(e.path, label)
}
for (const event of Object.keys(AUDIT_EVENTS)) actionArea.set(event, SIGN_IN)

const areaOf = (action: string): string => actionArea.get(action) ?? ''
const actionsOf = (area: string): string[] => [...actionArea].filter(([, a]) => a === area).map(([action]) => action)

/** The where clause of the filters and the search ('' is any). */
function auditWhere(filter: AuditFilter, search: string): SQL | undefined {
  const parts: (SQL | undefined)[] = []
  if (filter.admin !== '') parts.push(eq(auditLog.adminId, filter.admin))
  if (filter.area !== '') {
    const actions = actionsOf(filter.area)
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

function entry(row: AuditRow, staff: Staff): AuditEntry {
  const who = row.adminId === null ? undefined : staff.get(row.adminId)
  return {
    _id: row.id,
    at: row.at.toISOString(),
    adminId: row.adminId ?? '',
    adminName: who?.name ?? '',
    adminEmail: who?.email ?? '',
    action: row.action,
    area: areaOf(row.action),
    recordId: row.recordId ?? '',
    ip: row.ip ?? '',
    detail: row.detail,
  }
}

const EXPORT_BATCH = 2000
const CSV_COLUMNS = ['When (UTC)', 'Name', 'Email', 'Area', 'Action', 'Record', 'Address', 'Detail']

/** Newest first in keyset batches on (at, id): each batch is an index range, memory stays flat. */
async function* auditCsv(db: Db, where: SQL | undefined): AsyncGenerator<string> {
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
        const e = entry(row, staff)
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
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(auditLog).$dynamic(),
      search: () => undefined,
      filter: auditWhere(query, query.search),
      orderBy: [desc(auditLog.at), desc(auditLog.id)],
    })
    const staff = await staffOf(ctx.db, rows)
    return { status: 'success', message: 'Audit log fetched', result: rows.map((r) => entry(r, staff)), count }
  },

  auditOptions: async (_input, ctx) => {
    const staff = await ctx.db.select({ id: admins.id, name: admins.name, email: admins.email }).from(admins).orderBy(asc(admins.name))
    const writes = [...actionArea.keys()].filter((a) => eventKeys.has(a) || isWriteAction(a))
    return {
      status: 'success',
      message: 'Audit options fetched',
      admins: staff.map((a) => ({ value: a.id, label: `${a.name} (${a.email})` })),
      areas: [...new Set(actionArea.values())].sort().map((a) => ({ value: a, label: a })),
      actions: writes.map((a) => ({ value: a, label: auditActionName(a) })).sort((a, b) => a.label.localeCompare(b.label)),
    }
  },

  exportAudit: async (input, ctx) => new FileAnswer('audit-log.csv', 'text/csv; charset=utf-8', Readable.from(auditCsv(ctx.db, auditWhere(input, input.search)), { objectMode: false })),
})

/** Actions a staff member takes that change something: POST writes and the public sign-in calls. */
function isWriteAction(path: string): boolean {
  for (const area of Object.values(areas)) {
    for (const e of Object.values(area).filter(isEndpoint)) if (e.path === path) return isWrite(e) || e.access.kind !== 'screen'
  }
  return false
}
