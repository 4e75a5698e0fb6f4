/**
 * Restoring a backup (`npm run restore -- FILE`) into the database and storage the environment
 * names: an empty DATA_DIR (PGlite) or an empty PostgreSQL database, whichever engine made it.
 *
 * 1. The header is checked first: a backup whose migration this code does not know (a newer
 *    version made it) is refused before the target is touched.
 * 2. The target must be empty, unless `force` (then its tables are dropped first; see emptyTarget).
 *    A DATA_DIR is held against a server starting meanwhile (data-dir.ts).
 * 3. The server's own migrator brings the empty database to the backup's migration (not further:
 *    the rows must fit the schema they were read from).
 * 4. In one transaction: the rows, table after table in the file's order (each after the tables
 *    it references, checked), in batches cast from their text to the target's column types; then
 *    the uploads into the storage; then tables the migrations had filled (row_counts) replaced by
 *    the backup's rows; then sequences. A failure rolls it all back and removes what was stored.
 * 5. The remaining migrations of this code, as a server start would apply them.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, open, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import pg from 'pg'
import { z } from 'zod'
import { JWT_SECRET_FILE, type Config } from '../../../config.ts'
import { migrationsFolder, openDb, SERVER_APPLICATION_NAME } from '../../../db/index.ts'
import { openStorage, type ObjectStorage } from '../storage.ts'
import { DataDirBusy, holdDataDir, type DataDirHold } from './data-dir.ts'
import { End, FileEnd, FileStart, FORMAT, FORMAT_VERSION, Header, keyFingerprint, sha256, TableEnd, TableStart, type Contents } from './format.ts'
import { ident, pgliteSession, postgresSession, readCatalog, readJournal, type Journal, type Session, type TableInfo } from './session.ts'

/** The target is not empty (without `force`), is in use, or the backup cannot go into this code's schema. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  /** Drop the target's tables first instead of refusing a non-empty target. */
  force?: boolean
  /** Progress lines for the operator. */
  log?: (line: string) => void
}

export interface RestoreSummary extends Contents {
  header: Header
  /** Lines the operator must read: a key that differs, uploads still to copy. */
  notes: string[]
}

/** What --force does, for the refusal message and the documentation. */
export const FORCE_MEANS =
  '--force drops the target\'s tables first (PostgreSQL: every table of the database\'s schema and the migration record; PGlite: DATA_DIR/db); uploads already stored stay, the backup\'s are added, and the server\'s sweep later removes those no row names'

/** Rows sent to the database in one statement, or fewer when they hold more than BATCH_BYTES of text. */
const BATCH_ROWS = 1000
const BATCH_BYTES = 1 << 20

export async function restoreFromFile(config: Config, file: string, options: RestoreOptions = {}): Promise<RestoreSummary> {
  const log = options.log ?? (() => {})
  const { lines, close } = backupLines(file)
  try {
    const header = await readHeader(lines)
    const journal = await readJournal(migrationsFolder)
    checkMigration(header, journal)
    let hold: DataDirHold | null = null
    if (config.database.kind === 'pglite') {
      if (config.database.dir === null) throw new RestoreRefused('An in-memory database cannot be restored into')
      try {
        hold = await holdDataDir(config.dataDir, 'restore')
      } catch (error) {
        if (error instanceof DataDirBusy) throw new RestoreRefused(`${error.message}: stop it before restoring into this DATA_DIR`)
        throw error
      }
    }
    try {
      const contents = await restoreInto(config, header, journal, lines, options.force === true, log)
      return { ...contents, header, notes: await keyNotes(config, header) }
    } finally {
      await hold?.release()
    }
  } finally {
    close()
  }
}

async function restoreInto(config: Config, header: Header, journal: Journal, lines: AsyncIterator<string>, force: boolean, log: (line: string) => void): Promise<Contents> {
  const storage = await openStorage(config)
  const problems = await targetProblems(config, storage)
  if (problems.length > 0) {
    if (!force) throw new RestoreRefused(`The target is not empty:\n  ${problems.join('\n  ')}\nRestore into an empty DATA_DIR or database, or pass --force (${FORCE_MEANS}).`)
    if (config.database.kind === 'pg') await refuseWhileInUse(config.database.url)
    log(`--force: emptying the target (${problems.join('; ')})`)
    await emptyTarget(config)
  }
  log(`Restoring a backup of ${header.createdAt} (${header.engine} ${header.serverVersion}, migration ${header.migration.tag ?? header.migration.when}) into ${describeTarget(config)}`)
  const upTo = await migrationsUpTo(journal, header.migration.when)
  const put: string[] = []
  let contents: Contents
  try {
    let handle
    try {
      handle = await openDb(config.database, undefined, { statementTimeoutMs: 0, migrationsFolder: upTo })
    } finally {
      await rm(upTo, { recursive: true, force: true })
    }
    try {
      const loading = (session: Session): Promise<Contents> => load(session, header, lines, { storage, tmpDir: config.tmpDir, put }, log)
      contents = handle.kind === 'pglite' ? await handle.client.transaction((tx) => loading(pgliteSession(tx))) : await inTransaction(handle.pool, loading)
    } finally {
      await handle.close()
    }
  } catch (error) {
    // Nothing half-restored stays behind: the rows rolled back; the files and the schema go too
    // (the target was empty, or emptied by --force, before).
    for (const name of put) await storage.remove(name).catch(() => false)
    await emptyTarget(config).catch(() => {})
    throw error
  }
  const latest = journal.at(-1)
  if (latest !== undefined && latest.when > header.migration.when) {
    await (await openDb(config.database, undefined, { statementTimeoutMs: 0 })).close()
    log(`Applied this version's later migrations, up to ${latest.tag}`)
  }
  return contents
}

/** The file's lines, one at a time, through gunzip. */
function backupLines(file: string): { lines: AsyncIterator<string>; close: () => void } {
  const source = createReadStream(file)
  const input = source.pipe(createGunzip())
  // A read error (no such file) reaches the reader through gunzip.
  source.once('error', (error) => input.destroy(error))
  const reader = createInterface({ input, crlfDelay: Infinity })
  return {
    lines: reader[Symbol.asyncIterator](),
    close: () => {
      reader.close()
      input.destroy()
      source.destroy()
    },
  }
}

async function next(lines: AsyncIterator<string>): Promise<string> {
  const line = await lines.next()
  if (line.done === true) throw new Error('The backup ends before its end marker: the file is incomplete')
  return line.value
}

async function readHeader(lines: AsyncIterator<string>): Promise<Header> {
  let first: string
  try {
    first = await next(lines)
  } catch (error) {
    throw new RestoreRefused(`Not a backup file (${error instanceof Error ? error.message : String(error)})`)
  }
  const raw: unknown = parseJson(first)
  const format = z.object({ format: z.literal(FORMAT), version: z.number() }).safeParse(raw)
  if (!format.success) throw new RestoreRefused('Not a backup file of this server (its first line is not a backup header)')
  if (format.data.version > FORMAT_VERSION) throw new RestoreRefused(`This backup is in format version ${format.data.version}, newer than this version reads (${FORMAT_VERSION}): restore it with the version that made it, or a later one`)
  return Header.parse(raw)
}

/** Refuses a backup of a migration this code does not have: a newer version made it. */
function checkMigration(header: Header, journal: Journal): void {
  const latest = journal.at(-1)
  const known = journal.some((e) => e.when === header.migration.when)
  if (latest === undefined || header.migration.when > latest.when || !known) {
    throw new RestoreRefused(
      `This backup's schema (migration ${header.migration.tag ?? header.migration.when}) is newer than this version's (${latest?.tag ?? 'none'}) or unknown to it: update this installation to the version that made the backup, then restore`,
    )
  }
}

/** A copy of the migrations folder whose journal ends at the backup's migration. */
async function migrationsUpTo(journal: Journal, when: number): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'bo-restore-migrations-'))
  const entries = journal.filter((e) => e.when <= when)
  await mkdir(join(folder, 'meta'))
  for (const entry of entries) await copyFile(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`))
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: entries.map((e) => ({ ...e, version: '7', breakpoints: true })) }))
  return folder
}

function describeTarget(config: Config): string {
  const storage = config.s3 === null ? join(config.uploadsDir, config.storagePrefix) : `the bucket ${config.s3.bucket}${config.storagePrefix === '' ? '' : ` under ${config.storagePrefix}`}`
  if (config.database.kind === 'pglite') return `PGlite in ${config.database.dir ?? 'memory'}, uploads in ${storage}`
  const url = new URL(config.database.url)
  return `PostgreSQL at ${url.host}${url.pathname}, uploads in ${storage}`
}

/** Why the target is not empty; none when it is. */
async function targetProblems(config: Config, storage: ObjectStorage): Promise<string[]> {
  const problems: string[] = []
  if (config.database.kind === 'pglite') {
    const dir = config.database.dir
    if (dir !== null && existsSync(dir) && (await readdir(dir)).length > 0) problems.push(`${dir} holds a database`)
  } else {
    const tables = await onPostgres(config.database.url, async (client) => {
      const { rows } = await client.query<{ name: string }>(
        `select c.relname as name from pg_class c where c.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and c.relkind in ('r', 'p') order by c.relname`,
      )
      const filled: string[] = []
      for (const row of rows) {
        if ((await client.query(`select 1 from ${ident(row.name)} limit 1`)).rows.length > 0) filled.push(row.name)
      }
      const migrated = (await client.query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)).rows[0]?.present === true
      return { all: rows.map((r) => r.name), filled, migrated }
    })
    if (tables.all.length > 0 || tables.migrated) {
      const filled = tables.filled.length === 0 ? 'none with rows' : `${tables.filled.length} with rows: ${tables.filled.slice(0, 8).join(', ')}${tables.filled.length > 8 ? ', ...' : ''}`
      problems.push(`the database holds ${tables.all.length} tables (${filled})`)
    }
  }
  for await (const file of storage.list()) {
    problems.push(`${storage.description} holds files (${file.name}, ...)`)
    break
  }
  return problems
}

const Sessions = z.array(z.object({ pid: z.number(), application_name: z.string().nullable(), state: z.string().nullable() }))

/**
 * --force on PostgreSQL drops the tables a running server still uses (PGlite's data folder is
 * held by its server already, data-dir.ts): refused while any other session is connected to the
 * database, the servers' named as such (their connections carry SERVER_APPLICATION_NAME).
 */
async function refuseWhileInUse(url: string): Promise<void> {
  const sessions = await onPostgres(url, async (client) =>
    Sessions.parse((await client.query(`select pid, application_name, state from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend' order by pid`)).rows),
  )
  if (sessions.length === 0) return
  const servers = sessions.filter((s) => s.application_name === SERVER_APPLICATION_NAME).length
  const others = sessions.filter((s) => s.application_name !== SERVER_APPLICATION_NAME).map((s) => `process ${s.pid}${s.application_name === null || s.application_name === '' ? '' : ` (${s.application_name})`}`)
  throw new RestoreRefused(
    `The database is in use: ${[servers > 0 ? `${servers} connection${servers === 1 ? '' : 's'} of a running back-office server` : null, others.length > 0 ? `other sessions: ${others.join(', ')}` : null].filter((part) => part !== null).join('; ')}. ` +
      'Stop every server (and close other sessions) before --force drops its tables.',
  )
}

/** --force, and the clean-up of a failed restore: the target's tables go (uploads stay). */
async function emptyTarget(config: Config): Promise<void> {
  if (config.database.kind === 'pglite') {
    if (config.database.dir !== null) await rm(config.database.dir, { recursive: true, force: true })
    return
  }
  await onPostgres(config.database.url, async (client) => {
    const { rows } = await client.query<{ name: string }>(`select c.relname as name from pg_class c where c.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and c.relkind in ('r', 'p')`)
    await client.query('BEGIN')
    for (const row of rows) await client.query(`DROP TABLE IF EXISTS ${ident(row.name)} CASCADE`)
    await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE')
    await client.query('COMMIT')
  })
}

async function onPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end().catch(() => {})
  }
}

async function inTransaction<T>(pool: pg.Pool, fn: (session: Session) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await fn(postgresSession(client))
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

const Row = z.array(z.string().nullable())

interface Sink {
  storage: ObjectStorage
  tmpDir: string
  /** Names stored so far, removed again if the restore fails. */
  put: string[]
}

/** Every row and upload of the file, in one transaction on `session`. */
async function load(session: Session, header: Header, lines: AsyncIterator<string>, sink: Sink, log: (line: string) => void): Promise<Contents> {
  const target = new Map((await readCatalog(session)).map((t) => [t.name, t]))
  const mismatch = compareTables(header, target)
  if (mismatch.length > 0) throw new RestoreRefused(`This backup's tables do not match this database's at the same migration:\n  ${mismatch.join('\n  ')}`)
  // Tables the migrations filled (row_counts): other tables' inserts change them through
  // triggers, so their rows wait in a copy and replace the table's once every table is loaded.
  const filled: TableInfo[] = []
  for (const table of target.values()) {
    if ((await session.query(`SELECT 1 FROM ${ident(table.name)} LIMIT 1`)).length > 0) filled.push(table)
  }
  for (const table of filled) await session.query(`CREATE TEMP TABLE ${ident(`restore_${table.name}`)} (LIKE ${ident(table.name)}) ON COMMIT DROP`)
  const filledNames = new Set(filled.map((t) => t.name))
  const loaded = new Set<string>()
  const contents: Contents = { tables: 0, rows: 0, files: 0, fileBytes: 0 }
  for (const described of header.tables) {
    const start = TableStart.parse(parseJson(await next(lines)))
    if (start.table !== described.name) throw new Error(`The backup holds ${start.table} where its header lists ${described.name}`)
    const table = target.get(described.name)
    if (table === undefined) throw new Error(`No table ${described.name}`)
    const missing = table.parents.filter((p) => !loaded.has(p))
    if (missing.length > 0) throw new Error(`The backup holds ${table.name} before ${missing.join(', ')}, which it references`)
    const into = filledNames.has(table.name) ? `restore_${table.name}` : table.name
    contents.rows += await loadTable(session, into, described.columns, table, lines)
    loaded.add(table.name)
    contents.tables += 1
  }
  log(`Loaded ${contents.rows.toLocaleString('en-US')} rows in ${contents.tables} tables`)
  for (;;) {
    const raw = parseJson(await next(lines))
    const end = End.safeParse(raw)
    if (end.success) {
      if (end.data.rows !== contents.rows || end.data.files !== contents.files || end.data.tables !== contents.tables) throw new Error('The backup\'s end marker does not agree with what it held: the file is damaged')
      break
    }
    await restoreFile(FileStart.parse(raw), lines, sink, contents)
  }
  if (contents.files > 0) log(`Stored ${contents.files} uploads (${(contents.fileBytes / 1_000_000).toFixed(1)} MB) in ${sink.storage.description}`)
  for (const table of filled) {
    const columns = table.columns.map((c) => ident(c.name)).join(', ')
    await session.query(`DELETE FROM ${ident(table.name)}`)
    await session.query(`INSERT INTO ${ident(table.name)} (${columns}) SELECT ${columns} FROM ${ident(`restore_${table.name}`)}`)
  }
  await restartSequences(session)
  return contents
}

/** The backup's tables and columns against the target's: the same names, column for column. */
function compareTables(header: Header, target: Map<string, TableInfo>): string[] {
  const problems: string[] = []
  const inBackup = new Set(header.tables.map((t) => t.name))
  for (const name of target.keys()) if (!inBackup.has(name)) problems.push(`${name}: in the database, not in the backup`)
  for (const table of header.tables) {
    const there = target.get(table.name)
    if (there === undefined) {
      problems.push(`${table.name}: in the backup, not in the database`)
      continue
    }
    const mine = table.columns.map((c) => c.name).sort().join(', ')
    const theirs = there.columns.map((c) => c.name).sort().join(', ')
    if (mine !== theirs) problems.push(`${table.name}: the backup has (${mine}), the database (${theirs})`)
  }
  return problems
}

/** One table's rows, in batches; checks their count and hash against the table's end line. */
async function loadTable(session: Session, into: string, columns: Header['tables'][number]['columns'], table: TableInfo, lines: AsyncIterator<string>): Promise<number> {
  const types = new Map(table.columns.map((c) => [c.name, c.type]))
  const casts = columns.map((c, i) => `(r->>${i})::${types.get(c.name) ?? 'text'}`).join(', ')
  const insert = `INSERT INTO ${ident(into)} (${columns.map((c) => ident(c.name)).join(', ')}) OVERRIDING SYSTEM VALUE SELECT ${casts} FROM json_array_elements($1::json) AS e(r)`
  const hash = sha256()
  let batch: string[] = []
  let bytes = 0
  let rows = 0
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return
    await session.query(insert, [`[${batch.join(',')}]`])
    batch = []
    bytes = 0
  }
  for (;;) {
    const line = await next(lines)
    if (!line.startsWith('[')) {
      await flush()
      const end = TableEnd.parse(parseJson(line))
      if (end.end !== table.name || end.rows !== rows || end.sha256 !== hash.digest('hex')) throw new Error(`The rows of ${table.name} do not match their count and checksum in the backup: the file is damaged`)
      return rows
    }
    const values = Row.safeParse(parseJson(line))
    if (!values.success || values.data.length !== columns.length) throw new Error(`A row of ${table.name} in the backup is not ${columns.length} values: the file is damaged`)
    hash.update(`${line}\n`)
    batch.push(line)
    bytes += line.length
    rows += 1
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush()
  }
}

/** One upload: its pieces into a staging file, checked, then into the storage. */
async function restoreFile(start: z.infer<typeof FileStart>, lines: AsyncIterator<string>, sink: Sink, contents: Contents): Promise<void> {
  await mkdir(sink.tmpDir, { recursive: true })
  const path = join(sink.tmpDir, `restore-${randomBytes(8).toString('hex')}`)
  const handle = await open(path, 'w', 0o600)
  const hash = sha256()
  let size = 0
  try {
    for (;;) {
      const line = await next(lines)
      if (!line.startsWith('"')) {
        const end = FileEnd.parse(parseJson(line))
        if (end.endFile !== start.file || size !== start.size || end.sha256 !== hash.digest('hex')) throw new Error(`The upload ${start.file} does not match its size and checksum in the backup: the file is damaged`)
        break
      }
      const bytes = Buffer.from(z.string().parse(parseJson(line)), 'base64')
      hash.update(bytes)
      size += bytes.length
      await handle.write(bytes)
    }
  } catch (error) {
    await handle.close()
    await rm(path, { force: true })
    throw error
  }
  await handle.close()
  // The sweep's grace counts from a file's time: a restored file keeps the one it had.
  const modified = new Date(start.modified)
  if (!Number.isNaN(modified.getTime())) await utimes(path, modified, modified)
  try {
    await sink.storage.putFile(start.file, path)
  } finally {
    await rm(path, { force: true })
  }
  sink.put.push(start.file)
  contents.files += 1
  contents.fileBytes += size
}

/** Serial and identity columns' sequences continue after the restored values. */
async function restartSequences(session: Session): Promise<void> {
  const owned = z.array(z.object({ table: z.string(), column: z.string(), sequence: z.string() })).parse(
    await session.query(`
      select c.relname as "table", a.attname as "column", pg_get_serial_sequence(format('%I', c.relname), a.attname) as "sequence"
        from pg_attribute a join pg_class c on c.oid = a.attrelid
       where c.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and c.relkind in ('r', 'p')
         and a.attnum > 0 and not a.attisdropped and pg_get_serial_sequence(format('%I', c.relname), a.attname) is not null`),
  )
  for (const s of owned) await session.query(`SELECT setval($1, coalesce((SELECT max(${ident(s.column)}) FROM ${ident(s.table)}), 0) + 1, false)`, [s.sequence])
}

/** The token key: the backup's generated key goes to DATA_DIR/jwt-secret; a different key is said. */
async function keyNotes(config: Config, header: Header): Promise<string[]> {
  const notes: string[] = []
  const same = keyFingerprint(config.jwtSecret) === header.key.fingerprint
  if (header.key.secret !== undefined) {
    await writeFile(join(config.dataDir, JWT_SECRET_FILE), `${header.key.secret}\n`, { mode: 0o600 })
    if (config.jwtSecretFile === null && !same) {
      notes.push(`JWT_SECRET is set and is not the key this backup's data was sealed with. The backup's key is now in ${join(config.dataDir, JWT_SECRET_FILE)}: unset JWT_SECRET (or set it to that file's content), or every session ends, enrolled 2FA must be set up again and queued mail bodies cannot be read.`)
    }
  } else if (!same) {
    notes.push(
      'The token key differs from the one this backup\'s data was sealed with, and the backup holds no key (the source set JWT_SECRET, or its generated key was left out: made without --with-secrets): set JWT_SECRET to the source\'s key (its JWT_SECRET, or the content of its DATA_DIR/jwt-secret), or every session ends, enrolled 2FA must be set up again and queued mail bodies cannot be read.',
    )
  }
  if (!header.uploads.included) {
    notes.push(`This backup holds no uploads: they were in ${header.uploads.storage}. Copy them into ${config.s3 === null ? join(config.uploadsDir, config.storagePrefix) : `the bucket ${config.s3.bucket}`}, for example with:`)
    for (const command of header.uploads.copy ?? []) notes.push(`  ${command}`)
  }
  return notes
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    throw new Error(`The backup holds a line that is not JSON (${line.slice(0, 40)}...): the file is damaged`)
  }
}
