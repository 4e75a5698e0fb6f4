/**
 * The backup file: gzip'd JSON lines, read and written as a stream, so a million leads never sit
 * in memory. It is logical, not a copy of either engine's files: every value is kept as
 * PostgreSQL's own text for its type (the same on PGlite and PostgreSQL), so a backup of one
 * engine restores into the other.
 *
 *   line 1               the header (Header below): format version, migration, engine, tables...
 *   {"table":"admins"}   a table begins; then one line per row, in primary-key order:
 *   ["id","2026-01-01 10:00:00+00",null,...]   its columns' text in the header's column order
 *   {"end":"admins","rows":1,"sha256":"..."}   the table's row count and the hash of its row lines
 *   ...                  every table, each after the tables it references
 *   {"file":"<name>","size":123,"modified":"<ISO time>"}   an upload (local storage only), then
 *   "<base64>"           its bytes in pieces
 *   {"endFile":"<name>","sha256":"..."}
 *   {"end":true,"tables":35,"rows":1234,"files":42}   nothing is missing after this
 *
 * A row is an array (line starts with `[`), a piece of a file a string (`"`), anything else an
 * object (`{`).
 */
import { createHash, createHmac } from 'node:crypto'
import { z } from 'zod'

export const FORMAT = 'back-office-backup'
/** Raised when a change means an older restore could not read the file correctly. */
export const FORMAT_VERSION = 1

const Column = z.object({ name: z.string(), type: z.string() })

export const Header = z.object({
  format: z.literal(FORMAT),
  version: z.number().int().positive(),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  /** The engine's `server_version`. */
  serverVersion: z.string(),
  migration: z.object({ tag: z.string().nullable(), when: z.number(), hash: z.string() }),
  tables: z.array(z.object({ name: z.string(), columns: z.array(Column), key: z.array(z.string()) })),
  uploads: z.object({
    /** Local storage: the files follow the tables. S3: the bucket is not in the file. */
    included: z.boolean(),
    /** Where they were (the storage's description). */
    storage: z.string(),
    /** S3: commands that copy the bucket (printed by the backup, kept here for whoever restores). */
    copy: z.array(z.string()).optional(),
  }),
  key: z.object({
    /** Tells whether the restored server's key is the one the data was sealed with, without holding the key. */
    fingerprint: z.string(),
    /**
     * The token key itself when the source generated it in DATA_DIR/jwt-secret (JWT_SECRET unset):
     * the 2FA secrets and queued mail bodies are sealed with it, so the data is of no full use
     * without it. Absent when JWT_SECRET gave the key: the operator keeps that one.
     */
    secret: z.string().optional(),
  }),
})
export type Header = z.infer<typeof Header>

/** Sixteen hex digits that identify a key without revealing it. */
export const keyFingerprint = (key: Uint8Array): string => createHmac('sha256', key).update('back-office backup key check').digest('hex').slice(0, 16)

export const TableStart = z.object({ table: z.string() })
export const TableEnd = z.object({ end: z.string(), rows: z.number().int().nonnegative(), sha256: z.string() })
export const FileStart = z.object({ file: z.string(), size: z.number().int().nonnegative(), modified: z.string() })
export const FileEnd = z.object({ endFile: z.string(), sha256: z.string() })
export const End = z.object({ end: z.literal(true), tables: z.number().int(), rows: z.number().int(), files: z.number().int() })

/** Bytes of a file per line (base64 makes a third more). */
export const FILE_PIECE = 48 * 1024

export const sha256 = () => createHash('sha256')

/** What a backup holds, for the summary line. */
export interface Contents {
  tables: number
  rows: number
  files: number
  fileBytes: number
}

/** "1,234 rows in 35 tables, 42 uploads (3.2 MB)" */
export function describeContents(c: Contents, uploadsIncluded: boolean): string {
  const n = (v: number): string => v.toLocaleString('en-US')
  const uploads = uploadsIncluded ? `, ${n(c.files)} upload${c.files === 1 ? '' : 's'} (${(c.fileBytes / 1_000_000).toFixed(1)} MB)` : ''
  return `${n(c.rows)} rows in ${n(c.tables)} tables${uploads}`
}
