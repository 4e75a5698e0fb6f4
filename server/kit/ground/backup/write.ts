/**
 * Writing a backup (`npm run backup -- FILE`, and the scheduled backups): every table of one
 * snapshot and, with local storage, the uploads of that moment, into one file (format.ts).
 *
 * Where the snapshot comes from:
 * - PostgreSQL: one REPEATABLE READ, READ ONLY transaction on a connection of its own; the
 *   servers go on serving meanwhile.
 * - PGlite with a running server: the server copies its data folder between two statements
 *   (snapshot.ts) and the backup reads the copy; with no server running, the backup takes the
 *   data folder itself (data-dir.ts) and reads it in one transaction.
 * - S3 storage: the bucket is not copied; the backup says so and how to copy it.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { PGlite } from '@electric-sql/pglite'
import { getTableName } from 'drizzle-orm'
import pg from 'pg'
import type { Config, S3Settings } from '../../../config.ts'
import { createPglite, migrationsFolder } from '../../../db/index.ts'
import { uploadColumns } from '../../../db/schema.ts'
import { FILE_PIECE, FORMAT, FORMAT_VERSION, keyFingerprint, sha256, type Contents, type Header } from './format.ts'
import { DataDirBusy, holdDataDir, requestSnapshot, type DataDirHold } from './data-dir.ts'
import { appliedMigration, ident, pgliteSession, postgresSession, readCatalog, readJournal, type Engine, type Session, type TableInfo } from './session.ts'
import { isCode, isSnapshotFolder, snapshotsDir, stageUploads, type LocalUploads, type StagedUploads } from './snapshot.ts'

/** Rows fetched from the cursor at once. */
const FETCH_ROWS = 2000

/**
 * One snapshot of a database and its uploads. `read` runs its callback inside one REPEATABLE READ,
 * READ ONLY transaction, with the uploads staged at the moment of the snapshot (null with S3).
 */
export interface SnapshotReader {
  engine: Engine
  /** Where the data comes from, for the summary. */
  via: string
  read<T>(fn: (session: Session, uploads: StagedUploads | null) => Promise<T>): Promise<T>
}

/** How the source keeps its uploads and its key, for the header. */
export interface SourceFacts {
  /** Local uploads to take, or the S3 bucket left out. */
  storage: { kind: 'local'; uploads: LocalUploads } | { kind: 's3'; settings: S3Settings; prefix: string }
  jwtSecret: Uint8Array
  /**
   * DATA_DIR/jwt-secret when the key was generated there and the backup was asked to carry it
   * (`--with-secrets`); null otherwise. Left out by default: whoever holds a backup with the key
   * can sign sessions for every admin in it and unseal the 2FA secrets.
   */
  jwtSecretFile: string | null
}

export interface BackupSummary extends Contents {
  file: string
  via: string
  /** Lines for the operator: the S3 note, when the uploads are not in the file. */
  notes: string[]
}

export const sourceFacts = (config: Config, withSecrets = false): SourceFacts => ({
  storage: config.s3 === null ? { kind: 'local', uploads: { dir: config.uploadsDir, prefix: config.storagePrefix } } : { kind: 's3', settings: config.s3, prefix: config.storagePrefix },
  jwtSecret: config.jwtSecret,
  jwtSecretFile: withSecrets ? config.jwtSecretFile : null,
})

/** What the operator must keep beside a backup made without the generated key. */
export const keyLeftOutNote = (config: Config): string[] =>
  config.jwtSecretFile === null
    ? []
    : [`This backup holds no token key (left out without --with-secrets): keep ${config.jwtSecretFile} safely apart from it, or a restore ends every session, enrolled 2FA must be set up again and queued mail bodies cannot be read.`]

/**
 * A backup of the configured database and uploads into `file` (written as FILE.partial, renamed
 * when complete, mode 0600: it holds password hashes and, with `withSecrets`, the generated key).
 * `pglite` reads that client instead of opening DATA_DIR (an in-memory database; tests).
 */
export async function backupToFile(config: Config, file: string, options: { pglite?: PGlite; withSecrets?: boolean } = {}): Promise<BackupSummary> {
  const summary = await backupWith(config, file, sourceFacts(config, options.withSecrets === true), options.pglite)
  return options.withSecrets === true ? summary : { ...summary, notes: [...summary.notes, ...keyLeftOutNote(config)] }
}

async function backupWith(config: Config, file: string, facts: SourceFacts, pglite: PGlite | undefined): Promise<BackupSummary> {
  const options = { pglite }
  const local = facts.storage.kind === 'local' ? facts.storage.uploads : null
  if (options.pglite !== undefined) return writeBackup(file, pgliteReader(options.pglite, 'the database of this process', local), facts)
  if (config.database.kind === 'pg') return writeBackup(file, postgresReader(config.database.url, local), facts)
  const dbDir = config.database.dir
  if (dbDir === null) throw new Error('An in-memory database cannot be backed up from another process')
  if (!existsSync(join(dbDir, 'PG_VERSION'))) throw new Error(`There is no database in ${dbDir}: is DATA_DIR right?`)
  let hold: DataDirHold
  try {
    hold = await holdDataDir(config.dataDir, 'backup')
  } catch (error) {
    if (!(error instanceof DataDirBusy)) throw error
    if (error.holder !== null && error.holder.kind !== 'server') throw new Error(`${error.message}; try again when it has finished`)
    // A running server: it copies its database between two statements, and we read the copy.
    const snapshot = await requestSnapshot(config.dataDir)
    // Removed when read: only ever a snapshot folder of this data folder, whatever answered.
    if (!isSnapshotFolder(config.dataDir, snapshot)) throw new Error(`The running server answered ${JSON.stringify(snapshot)}, which is no snapshot folder of ${snapshotsDir(config.dataDir)}: nothing was read or removed`)
    try {
      return await writeBackup(file, await copyReader(snapshot, local !== null, error.holder === null ? 'the running server' : `the running server (process ${error.holder.pid})`), facts)
    } finally {
      await rm(snapshot, { recursive: true, force: true })
    }
  }
  try {
    const client = await createPglite({ kind: 'pglite', dir: dbDir })
    try {
      return await writeBackup(file, pgliteReader(client, `${dbDir} (no server running)`, local), facts)
    } finally {
      await client.close()
    }
  } finally {
    await hold.release()
  }
}

/** PostgreSQL: one connection, one REPEATABLE READ READ ONLY transaction for every table. */
export function postgresReader(url: string, uploads: LocalUploads | null): SnapshotReader {
  const where = new URL(url)
  return {
    engine: 'postgres',
    via: `PostgreSQL at ${where.host}${where.pathname}`,
    async read(fn) {
      const client = new pg.Client({ connectionString: url })
      // A lost connection rejects the query in flight; the 'error' event must not end the process.
      client.on('error', () => {})
      await client.connect()
      const staging = uploads === null ? null : join(uploads.dir, `.backup-${randomBytes(6).toString('hex')}`)
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
        // The snapshot is taken at the first statement; the uploads are staged after it, so every
        // file a row of the snapshot names is there (snapshot.ts).
        await client.query('select 1')
        if (uploads !== null && staging !== null) await removeStaleStaging(uploads.dir)
        const staged = uploads === null || staging === null ? null : await stageUploads(uploads, staging)
        const result = await fn(postgresSession(client), staged)
        await client.query('COMMIT')
        return result
      } finally {
        if (staging !== null) await rm(staging, { recursive: true, force: true })
        await client.end().catch(() => {})
      }
    },
  }
}

/** PGlite in this process: one transaction holds its connection, the uploads staged inside it. */
export function pgliteReader(client: PGlite, via: string, uploads: LocalUploads | { staged: StagedUploads } | null): SnapshotReader {
  return {
    engine: 'pglite',
    via,
    read: (fn) =>
      client.transaction(async (tx) => {
        await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
        if (uploads === null || 'staged' in uploads) return fn(pgliteSession(tx), uploads === null ? null : uploads.staged)
        const staging = join(uploads.dir, `.backup-${randomBytes(6).toString('hex')}`)
        try {
          return await fn(pgliteSession(tx), await stageUploads(uploads, staging))
        } finally {
          await rm(staging, { recursive: true, force: true })
        }
      }),
  }
}

/** A snapshot folder the running server made (db/ and uploads/): read with a PGlite of our own. */
export async function copyReader(snapshot: string, withUploads: boolean, via: string): Promise<SnapshotReader> {
  const staged: StagedUploads | null = withUploads ? { own: join(snapshot, 'uploads', 'own'), top: existsSync(join(snapshot, 'uploads', 'top')) ? join(snapshot, 'uploads', 'top') : null } : null
  return {
    engine: 'pglite',
    via,
    async read(fn) {
      // Small buffers: this PGlite may live in the server's process (the scheduled backups).
      const client = await createPglite({ kind: 'pglite', dir: join(snapshot, 'db'), sharedBuffersMb: 16 })
      try {
        return await pgliteReader(client, via, staged === null ? null : { staged }).read(fn)
      } finally {
        await client.close()
      }
    },
  }
}

/** Writes the snapshot `reader` gives into `file`. */
export async function writeBackup(file: string, reader: SnapshotReader, facts: SourceFacts): Promise<BackupSummary> {
  const partial = `${file}.partial`
  await mkdir(dirname(file), { recursive: true })
  const contents: Contents = { tables: 0, rows: 0, files: 0, fileBytes: 0 }
  const notes = facts.storage.kind === 's3' ? s3Note(facts.storage.settings, facts.storage.prefix) : []
  try {
    await reader.read(async (session, staged) => {
      await pipeline(Readable.from(backupLines(session, staged, facts, contents)), createGzip(), createWriteStream(partial, { mode: 0o600 }))
    })
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  return { ...contents, file, via: reader.via, notes }
}

async function* backupLines(session: Session, staged: StagedUploads | null, facts: SourceFacts, contents: Contents): AsyncGenerator<string> {
  // Values are written as PostgreSQL's text for their type: fixed settings make that text the same whatever the session's defaults.
  await session.query(`SET LOCAL TimeZone = 'UTC'`)
  await session.query(`SET LOCAL DateStyle = 'ISO, YMD'`)
  await session.query(`SET LOCAL IntervalStyle = 'postgres'`)
  await session.query('SET LOCAL extra_float_digits = 3')
  const tables = await readCatalog(session)
  const migration = await appliedMigration(session, await readJournal(migrationsFolder))
  const [version] = await session.query('show server_version')
  const header: Header = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    engine: session.engine,
    serverVersion: String(version?.['server_version'] ?? ''),
    migration,
    tables: tables.map((t) => ({ name: t.name, columns: t.columns, key: t.key })),
    uploads:
      facts.storage.kind === 'local'
        ? { included: true, storage: `the folder ${join(facts.storage.uploads.dir, facts.storage.uploads.prefix)}` }
        : { included: false, storage: s3Where(facts.storage.settings, facts.storage.prefix), copy: s3Commands(facts.storage.settings, facts.storage.prefix) },
    key: {
      fingerprint: keyFingerprint(facts.jwtSecret),
      ...(facts.jwtSecretFile === null ? {} : { secret: (await readFile(facts.jwtSecretFile, 'utf8')).trim() }),
    },
  }
  yield `${JSON.stringify(header)}\n`
  for (const table of tables) {
    yield* tableLines(session, table, contents)
    contents.tables += 1
  }
  if (staged !== null) yield* fileLines(session, staged, contents)
  yield `${JSON.stringify({ end: true, tables: contents.tables, rows: contents.rows, files: contents.files })}\n`
}

/** A table's rows in key order (every column in turn when it has no key), through a cursor. */
async function* tableLines(session: Session, table: TableInfo, contents: Contents): AsyncGenerator<string> {
  if (table.columns.length > 100) throw new Error(`${table.name} has ${table.columns.length} columns; a backup row holds 100 at most (json_build_array's limit)`)
  yield `${JSON.stringify({ table: table.name })}\n`
  const values = table.columns.map((c) => `${ident(c.name)}::text`).join(', ')
  const order = (table.key.length > 0 ? table.key.map(ident) : table.columns.map((c) => `${ident(c.name)}::text`)).join(', ')
  await session.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT json_build_array(${values})::text AS line FROM ${ident(table.name)} ORDER BY ${order}`)
  const hash = sha256()
  let rows = 0
  for (;;) {
    const batch = await session.query(`FETCH FORWARD ${FETCH_ROWS} FROM backup_rows`)
    if (batch.length === 0) break
    const chunk = `${batch.map((r) => String(r['line'])).join('\n')}\n`
    hash.update(chunk)
    rows += batch.length
    yield chunk
  }
  await session.query('CLOSE backup_rows')
  contents.rows += rows
  yield `${JSON.stringify({ end: table.name, rows, sha256: hash.digest('hex') })}\n`
}

/** The staged uploads: every file under the prefix, and the older names at the top that rows still hold. */
async function* fileLines(session: Session, staged: StagedUploads, contents: Contents): AsyncGenerator<string> {
  const own = (await readdir(staged.own)).sort()
  const chosen = own.map((name) => join(staged.own, name))
  if (staged.top !== null) {
    const held = await namesHeld(session)
    const mine = new Set(own)
    for (const name of (await readdir(staged.top)).sort()) if (held.has(name) && !mine.has(name)) chosen.push(join(staged.top, name))
  }
  for (const path of chosen) {
    const name = basename(path)
    const stats = await stat(path)
    yield `${JSON.stringify({ file: name, size: stats.size, modified: stats.mtime.toISOString() })}\n`
    const hash = sha256()
    for await (const bytes of createReadStream(path, { highWaterMark: FILE_PIECE }) as AsyncIterable<Buffer>) {
      hash.update(bytes)
      yield `${JSON.stringify(bytes.toString('base64'))}\n`
    }
    yield `${JSON.stringify({ endFile: name, sha256: hash.digest('hex') })}\n`
    contents.files += 1
    contents.fileBytes += stats.size
  }
}

/** Every stored name the snapshot's upload columns hold (schema.ts's uploadColumns, as the sweep reads them). */
async function namesHeld(session: Session): Promise<Set<string>> {
  const names = new Set<string>()
  for (const column of uploadColumns) {
    const value = column.dataType === 'array' ? `unnest(${ident(column.name)})` : ident(column.name)
    for (const row of await session.query(`SELECT DISTINCT ${value} AS name FROM ${ident(getTableName(column.table))}`)) {
      if (typeof row['name'] === 'string' && row['name'] !== '') names.add(row['name'])
    }
  }
  return names
}

/** Staging folders of backups killed half-way (a day old: none can still be reading them). */
async function removeStaleStaging(uploadsDir: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(uploadsDir)
  } catch (error) {
    if (isCode(error, 'ENOENT')) return
    throw error
  }
  for (const name of names.filter((n) => n.startsWith('.backup-'))) {
    const stats = await stat(join(uploadsDir, name)).catch(() => null)
    if (stats !== null && Date.now() - stats.mtimeMs > 24 * 3_600_000) await rm(join(uploadsDir, name), { recursive: true, force: true })
  }
}

function s3Where(settings: S3Settings, prefix: string): string {
  return `the bucket ${settings.bucket} at ${new URL(settings.endpoint).origin}${prefix === '' ? '' : `, under ${prefix}`}`
}

/** Commands that copy the bucket's uploads (this deployment's prefix) into a folder. */
function s3Commands(settings: S3Settings, prefix: string): string[] {
  const endpoint = new URL(settings.endpoint).origin
  return [
    `mc alias set backup-source ${endpoint} "$S3_ACCESS_KEY" "$S3_SECRET_KEY" && mc mirror backup-source/${settings.bucket}/${prefix} ./uploads-copy`,
    `aws s3 sync s3://${settings.bucket}/${prefix} ./uploads-copy --endpoint-url ${endpoint}`,
  ]
}

function s3Note(settings: S3Settings, prefix: string): string[] {
  return [
    `The uploads are in ${s3Where(settings, prefix)}, and this backup does not include them. Copy the bucket as well, for example with:`,
    ...s3Commands(settings, prefix).map((c) => `  ${c}`),
  ]
}
