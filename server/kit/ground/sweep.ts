/**
 * The sweep of files nothing will ever use: leftovers in DATA_DIR/tmp (a request cut off by a
 * crash never removed its staging files) and stored uploads (DATA_DIR/uploads or the S3 bucket,
 * server/kit/ground/storage.ts) that no row names (a crash between storing an upload and the insert, or
 * between a committed delete and the file removal). Runs at start and then periodically
 * (server/app.ts).
 *
 * Only files older than the grace period are taken, so an upload that another request (or another
 * instance sharing the storage) is storing right now survives: a file is staged, stored (a
 * rename keeps its time; an object's time is when it was put) and referenced within one request.
 * The storage is listed before the database is read, every upload column is read in one snapshot
 * (referencedUploads), and a name no committed row holds never becomes referenced again (rows only
 * keep the names they already hold, or take them back from the trash, which is read in the same
 * snapshot), so a file the sweep removes is one no row can name.
 */
import type { Stats } from 'node:fs'
import { lstat, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/index.ts'
import { uploadColumns } from '../../db/schema.ts'
import { thumbOf } from './media.ts'
import type { ObjectInfo, ObjectStorage } from './storage.ts'
import { storedName, uploadUrl } from './uploads.ts'

export interface SweepOptions {
  tmpDir: string
  storage: ObjectStorage
  /** Files younger than this (by modification time) are kept whatever they are. */
  graceMs: number
  /** The current time; tests move it instead of waiting. */
  now?: number
  /** Tests only: runs between two upload columns' reads (referencedUploads). */
  betweenReads?: () => Promise<void>
}

/** What a sweep removed, as counts. */
export interface SweepResult {
  /** Staging files under DATA_DIR/tmp. */
  tmp: number
  /** Stored originals that no row names. */
  uploads: number
  /** Thumbnails of those, or left without an original. */
  thumbnails: number
}

/** A name `promote` gives a stored file (never a thumbnail, never anything put there by hand). */
export const isStoredName = (name: string): boolean => storedName(uploadUrl(name)) === name

const THUMB = /^[0-9a-f-]{36}-thumb\.webp$/

/**
 * Every stored name the upload columns of schema.ts hold, all read in one snapshot: one
 * REPEATABLE READ, READ ONLY transaction. Names move between columns (a delete moves a record's
 * files into trash.files, its Undo moves them back), so columns read each in a snapshot of its
 * own could miss a name that was in one column before the move and in another after it: an Undo
 * committed between two reads made the sweep delete the files of the record just restored. In one
 * snapshot every name is where it was at one moment. On PGlite the transaction holds its one
 * connection for the few reads, so nothing interleaves there at all.
 *
 * `betweenReads` runs after each column's read but the last (tests use it to commit an Undo in
 * the middle of the reads).
 */
export async function referencedUploads(db: Db, betweenReads?: () => Promise<void>): Promise<Set<string>> {
  return db.transaction(
    async (tx) => {
      const names = new Set<string>()
      for (const [index, column] of uploadColumns.entries()) {
        const value =
          column.dataType === 'array'
            ? sql`unnest(${column})`.mapWith(String)
            : column.dataType === 'json'
              ? sql`jsonb_array_elements(${column}) ->> 'name'`.mapWith(String)
              : sql`${column}`.mapWith(String)
        const rows = await tx.selectDistinct({ name: value }).from(column.table)
        for (const row of rows) if (row.name !== '') names.add(row.name)
        if (betweenReads !== undefined && index < uploadColumns.length - 1) await betweenReads()
      }
      return names
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

export async function sweepFiles(db: Db, options: SweepOptions): Promise<SweepResult> {
  const now = options.now ?? Date.now()
  const isOld = (modified: Date): boolean => now - modified.getTime() >= options.graceMs
  const result: SweepResult = { tmp: 0, uploads: 0, thumbnails: 0 }

  for (const { name, stats } of await filesIn(options.tmpDir)) {
    if (isOld(stats.mtime) && (await removed(join(options.tmpDir, name)))) result.tmp += 1
  }

  const { storage } = options
  const files: ObjectInfo[] = []
  for await (const file of storage.list()) if (isStoredName(file.name) || THUMB.test(file.name)) files.push(file)
  const referenced = await referencedUploads(db, options.betweenReads)
  const keptThumbs = new Set([...referenced].map(thumbOf))
  const orphanThumbs = new Set<string>()
  for (const { name, modified } of files) {
    if (!isStoredName(name) || referenced.has(name) || !isOld(modified)) continue
    if (await storage.remove(name)) result.uploads += 1
    // An original's thumbnail goes with it, however old: alone it is of no use.
    orphanThumbs.add(thumbOf(name))
  }
  for (const { name, modified } of files) {
    if (!THUMB.test(name) || keptThumbs.has(name)) continue
    // A young thumbnail without a row may be mid-promote (it is stored before its original).
    if ((orphanThumbs.has(name) || isOld(modified)) && (await storage.remove(name))) result.thumbnails += 1
  }
  return result
}

/** The regular files of a folder with their times; none when it does not exist. */
async function filesIn(dir: string): Promise<{ name: string; stats: Stats }[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return []
    throw error
  }
  const files: { name: string; stats: Stats }[] = []
  for (const name of names) {
    const stats = await lstat(join(dir, name)).catch(() => null)
    // Gone since the listing (a request finished with it), or not a plain file: not ours to judge.
    if (stats?.isFile() === true) files.push({ name, stats })
  }
  return files
}

/** Removes a file; false when it was already gone (another sweep or request took it). */
async function removed(path: string): Promise<boolean> {
  try {
    await rm(path)
    return true
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false
    throw error
  }
}

export interface SweepSchedule {
  tmpDir: string
  storage: ObjectStorage
  sweep: { graceMs: number; intervalMs: number }
}

/**
 * Sweeps once now (awaited, so a start never serves next to a crash's leftovers it could have
 * taken) and then every `intervalMs`, which also takes the leftovers that were still within the
 * grace period at start. A failed sweep is logged, never fatal. Returns the function that stops it.
 */
export async function scheduleSweeps(db: Db, config: SweepSchedule, log: FastifyBaseLogger): Promise<() => void> {
  let running = false
  const run = async (): Promise<void> => {
    if (running) return
    running = true
    try {
      const removedCounts = await sweepFiles(db, { tmpDir: config.tmpDir, storage: config.storage, graceMs: config.sweep.graceMs })
      if (removedCounts.tmp + removedCounts.uploads + removedCounts.thumbnails > 0) log.info({ removed: removedCounts }, 'swept leftover and unreferenced files')
    } catch (error) {
      log.error({ err: error }, 'file sweep failed')
    } finally {
      running = false
    }
  }
  await run()
  if (config.sweep.intervalMs === 0) return () => {}
  const timer = setInterval(() => void run(), config.sweep.intervalMs)
  // The sweep alone must not keep a closing process alive.
  timer.unref()
  return () => clearInterval(timer)
}
