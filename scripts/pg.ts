/**
 * Finding a PostgreSQL server for the test runner and the benchmark.
 *
 * The tests run once on PGlite (always there) and once on a real PostgreSQL. DATABASE_URL names
 * one explicitly; without it we look for a local server the way a developer's machine usually
 * has one (127.0.0.1:5432, role postgres or the OS user, trust or peer-less auth), so that
 * `npm test` covers both databases without any setup when it can.
 */
import os from 'node:os'
import pg from 'pg'

export interface Found {
  url: string
  /** Where the URL came from, for the runner's log line. */
  source: 'DATABASE_URL' | 'probe'
}

/** Why a candidate did not answer, kept for the message that tells a newcomer what to do. */
export interface ProbeResult {
  ok: boolean
  reason?: string
  /** The role may create databases (tests and the bench make a fresh one each). */
  canCreateDb?: boolean
}

/** Connects once, asks whether the role may create databases, and disconnects. */
export async function probe(url: string, timeoutMs = 3000): Promise<ProbeResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs })
  // An unreachable server can also surface as an 'error' event after connect() rejects;
  // without a listener that would crash the runner instead of counting as "no answer".
  client.on('error', () => {})
  try {
    await client.connect()
    const { rows } = await client.query<{ can: boolean }>(
      'select (rolsuper or rolcreatedb) as can from pg_roles where rolname = current_user',
    )
    return { ok: true, canCreateDb: rows[0]?.can === true }
  } catch (err: unknown) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) }
  } finally {
    await client.end().catch(() => {})
  }
}

/** Local candidates, most common first. The `postgres` database exists on every cluster. */
export function localCandidates(): string[] {
  const users = ['postgres']
  const me = os.userInfo().username
  if (me && me !== 'postgres') users.push(me)
  return users.map((u) => `postgres://${encodeURIComponent(u)}@127.0.0.1:5432/postgres`)
}

/**
 * DATABASE_URL when set (it must answer: a named server that is down is an error, not a skip),
 * else the first local candidate that answers with a role able to create databases, else null.
 */
export async function findPostgres(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ found: Found | null; tried: { url: string; result: ProbeResult }[] }> {
  const tried: { url: string; result: ProbeResult }[] = []
  const named = env.DATABASE_URL?.trim()
  if (named) {
    const result = await probe(named)
    tried.push({ url: redact(named), result })
    return { found: result.ok ? { url: named, source: 'DATABASE_URL' } : null, tried }
  }
  for (const url of localCandidates()) {
    const result = await probe(url)
    tried.push({ url, result })
    if (result.ok && result.canCreateDb) return { found: { url, source: 'probe' }, tried }
  }
  return { found: null, tried }
}

/** The URL with its password hidden, for logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable DATABASE_URL)'
  }
}

/** The same server, another database: used to open a freshly created database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}
