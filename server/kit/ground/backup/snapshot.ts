/**
 * Holding the uploads and the embedded database still for one moment, so a backup of a running
 * server is one snapshot.
 *
 * Uploads: at the moment of the database snapshot, every stored file is hard-linked into a
 * staging folder beside them (no bytes copied, so it takes milliseconds). A file removed
 * afterwards (a delete committed after the snapshot, purged from the trash before the backup gets
 * to it) keeps its bytes through the link, so every name the snapshot's rows hold is in the
 * backup. Where a link cannot be made (another file system), the file is copied instead.
 *
 * PGlite: the running server holds its one connection, and a backup reading row by row inside one
 * transaction would hold every request back for the whole read. Instead the server, between two
 * statements (PGlite runs one at a time), checkpoints and copies its data folder (and links the
 * uploads); the backup then reads the copy with a PGlite of its own, at its own pace. Requests
 * wait only for the copy: about a second per few hundred MB, instantly on a file system with
 * reflinks (btrfs, XFS).
 */
import { constants } from 'node:fs'
import { copyFile, cp, link, lstat, mkdir, readdir, rm, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

/** A flat stored name (server/kit/ground/storage.ts): nothing else in the uploads folder is an upload. */
const FLAT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/

/** The local uploads: DATA_DIR/uploads and this deployment's STORAGE_PREFIX ('' or 'a/b/'). */
export interface LocalUploads {
  dir: string
  prefix: string
}

/**
 * Links to the uploads of one moment: `own` holds the files under the prefix (every file of this
 * deployment), `top` (with a prefix only) the files at the top of the folder, where names stored
 * before the prefix was set still live; a backup takes from `top` only the names its rows hold.
 */
export interface StagedUploads {
  own: string
  top: string | null
}

/** Links (or copies) every upload into `into`; returns where. */
export async function stageUploads(uploads: LocalUploads, into: string): Promise<StagedUploads> {
  const staged: StagedUploads = { own: join(into, 'own'), top: uploads.prefix === '' ? null : join(into, 'top') }
  await linkFiles(join(uploads.dir, uploads.prefix), staged.own)
  if (staged.top !== null) await linkFiles(uploads.dir, staged.top)
  return staged
}

async function linkFiles(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 })
  let names: string[]
  try {
    names = await readdir(from)
  } catch (error) {
    if (isCode(error, 'ENOENT')) return
    throw error
  }
  for (const name of names) {
    if (!FLAT_NAME.test(name)) continue
    const stats = await lstat(join(from, name)).catch(() => null)
    if (stats?.isFile() !== true) continue
    try {
      await link(join(from, name), join(to, name))
    } catch (error) {
      // Removed since the listing: it was not there at the snapshot's moment either.
      if (isCode(error, 'ENOENT')) continue
      if (!isCode(error, 'EXDEV') && !isCode(error, 'EPERM') && !isCode(error, 'ENOTSUP') && !isCode(error, 'EMLINK')) throw error
      await copyFile(join(from, name), join(to, name)).catch((copyError: unknown) => {
        if (!isCode(copyError, 'ENOENT')) throw copyError
      })
    }
  }
}

/** Where the server puts the copies it makes for backups (DATA_DIR/snapshots/<id>/{db,uploads}). */
export const snapshotsDir = (dataDir: string): string => join(dataDir, 'snapshots')

/** How the server names a snapshot (schedule.ts): its time, then random hex. */
const SNAPSHOT_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{8}$/

/** Whether `dir` is a snapshot folder the server of `dataDir` would make: the only kind a backup removes. */
export function isSnapshotFolder(dataDir: string, dir: string): boolean {
  return isAbsolute(dir) && resolve(dir) === dir && dirname(dir) === resolve(snapshotsDir(dataDir)) && SNAPSHOT_NAME.test(basename(dir))
}

/**
 * Copies the running server's database folder (and links its uploads) into `into` while no
 * statement runs: one transaction holds PGlite's only connection for the copy, and a CHECKPOINT
 * first writes every changed page to the files, so the copy opens as the database was at that
 * moment (PGlite runs no background writer that could change a file meanwhile).
 */
export async function copyPglite(client: PGlite, dbDir: string, uploads: LocalUploads | null, into: string): Promise<void> {
  await mkdir(into, { recursive: true, mode: 0o700 })
  await client.transaction(async (tx) => {
    await tx.exec('CHECKPOINT')
    // A reflink where the file system offers one (instant), a plain copy otherwise.
    await cp(dbDir, join(into, 'db'), { recursive: true, mode: constants.COPYFILE_FICLONE })
    if (uploads !== null) await stageUploads(uploads, join(into, 'uploads'))
  })
}

/** Removes snapshot copies older than a day: what a backup killed half-way left behind. */
export async function removeStaleSnapshots(dataDir: string, now = Date.now()): Promise<number> {
  const dir = snapshotsDir(dataDir)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 0
    throw error
  }
  let removed = 0
  for (const name of names) {
    const stats = await stat(join(dir, name)).catch(() => null)
    if (stats === null || now - stats.mtimeMs < 24 * 3_600_000) continue
    await rm(join(dir, name), { recursive: true, force: true })
    removed += 1
  }
  return removed
}

export const isCode = (error: unknown, code: string): boolean => error instanceof Error && 'code' in error && error.code === code
