/**
 * What a server on the embedded database does for backups: it answers `npm run backup`'s request
 * for a snapshot (data-dir.ts), and with BACKUP_DIR set writes a backup every BACKUP_EVERY_HOURS
 * into that folder itself, keeping the newest BACKUP_KEEP.
 *
 * A timer, not the job queue: the embedded database has one instance (config.ts refuses BACKUP_DIR
 * with DATABASE_URL), and the files belong to this machine. The next backup is due
 * BACKUP_EVERY_HOURS after the newest file in the folder, so restarts neither skip one nor add one.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import type { FastifyBaseLogger } from 'fastify'
import type { BackupSchedule, Config } from '../../../config.ts'
import { describeContents } from './format.ts'
import { copyPglite, snapshotsDir } from './snapshot.ts'
import { copyReader, sourceFacts, writeBackup, type BackupSummary } from './write.ts'

/** A scheduled backup's name: its UTC time to the millisecond, so names sort as times do and never meet. */
const SCHEDULED = /^back-office-\d{8}-\d{6}-\d{3}\.backup$/

/** back-office-20260102-030405-678.backup */
export const scheduledName = (at: Date): string => `back-office-${at.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').slice(0, 19)}.backup`

/** Copies the running server's database and uploads into a new folder under DATA_DIR/snapshots. */
export async function serverSnapshot(client: PGlite, config: Config): Promise<string> {
  if (config.database.kind !== 'pglite' || config.database.dir === null) throw new Error('Snapshots are of a PGlite data folder')
  const dir = join(snapshotsDir(config.dataDir), `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`)
  await copyPglite(client, config.database.dir, config.s3 === null ? { dir: config.uploadsDir, prefix: config.storagePrefix } : null, dir)
  return dir
}

/** One backup into the schedule's folder, from a snapshot of the running server; then the rotation. */
export async function scheduledBackup(client: PGlite, config: Config, schedule: BackupSchedule, now = new Date()): Promise<BackupSummary> {
  await mkdir(schedule.dir, { recursive: true, mode: 0o700 })
  const snapshot = await serverSnapshot(client, config)
  try {
    const summary = await writeBackup(join(schedule.dir, scheduledName(now)), await copyReader(snapshot, config.s3 === null, 'the scheduled backup'), sourceFacts(config))
    await rotate(schedule)
    return summary
  } finally {
    await rm(snapshot, { recursive: true, force: true })
  }
}

/** The schedule's backups, oldest first. */
export async function scheduledBackups(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => SCHEDULED.test(name)).sort()
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return []
    throw error
  }
}

/** Keeps the newest `keep` scheduled backups; a file of another name is never touched. */
async function rotate(schedule: BackupSchedule): Promise<void> {
  const names = await scheduledBackups(schedule.dir)
  for (const name of names.slice(0, Math.max(0, names.length - schedule.keep))) await rm(join(schedule.dir, name), { force: true })
}

/** Starts the schedule; returns the function that stops it. */
export async function scheduleBackups(client: PGlite, config: Config, schedule: BackupSchedule, log: FastifyBaseLogger): Promise<() => void> {
  // What a backup killed half-way (the server stopped mid-write) left.
  for (const name of await readdir(schedule.dir).catch(() => [])) {
    if (name.endsWith('.partial') && SCHEDULED.test(name.slice(0, -'.partial'.length))) await rm(join(schedule.dir, name), { force: true })
  }
  const newest = (await scheduledBackups(schedule.dir)).at(-1)
  const last = newest === undefined ? 0 : (await stat(join(schedule.dir, newest))).mtimeMs
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const plan = (inMs: number): void => {
    if (stopped) return
    // setTimeout holds at most 2^31-1 ms (24.8 days); a longer wait is taken in steps.
    const wait = Math.min(Math.max(0, inMs), 2 ** 31 - 1)
    timer = setTimeout(() => void (wait < inMs ? plan(inMs - wait) : run()), wait)
    timer.unref()
  }
  const run = async (): Promise<void> => {
    const started = performance.now()
    try {
      const summary = await scheduledBackup(client, config, schedule)
      log.info({ file: summary.file, ms: Math.round(performance.now() - started) }, `scheduled backup written: ${describeContents(summary, config.s3 === null)}`)
      for (const note of summary.notes) log.warn(note)
      plan(schedule.everyMs)
    } catch (error) {
      // A full disk or a folder removed: said in the log, and tried again within the hour.
      log.error({ err: error }, 'scheduled backup failed')
      plan(Math.min(schedule.everyMs, 3_600_000))
    }
  }
  plan(last + schedule.everyMs - Date.now())
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
