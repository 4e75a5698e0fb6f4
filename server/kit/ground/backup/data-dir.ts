/**
 * Who has the embedded database's data folder open. PGlite keeps no lock of its own: a second
 * process opening DATA_DIR/db while the server runs would write over the server's pages. So the
 * process that opens it (the server, or a backup or a restore when no server runs) first takes
 * the folder by listening on a Unix socket in it, DATA_DIR/control/holder.sock:
 *
 * - the socket is the lock: binding a path that exists fails, so two processes cannot both hold it;
 * - it tells a live holder from a dead one without trusting a pid file: a process killed with -9
 *   leaves the socket file behind, but nothing accepts on it (ECONNREFUSED), and the next process
 *   removes it and takes the folder; a process id reused by another program fools nothing;
 * - it is how `npm run backup` asks a running server for a snapshot (POST /snapshot), with no
 *   secret to keep: the folder DATA_DIR/control is 0700 (and so is the temporary folder a long
 *   DATA_DIR's socket goes to, see socketToHold), so only the server's own user (or root) can
 *   connect, who could read the database files anyway. A signal could not say where the
 *   snapshot went nor that it failed, and a port would need a secret.
 *
 * The protocol is HTTP over that socket: GET / answers the holder, POST /snapshot (the server
 * only) answers the folder of a fresh snapshot (server/kit/ground/backup/snapshot.ts).
 */
import { chmod, lstat, mkdir, mkdtemp, readFile, rename, rmdir, unlink, writeFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { z } from 'zod'
import { isCode } from './snapshot.ts'

export type HolderKind = 'server' | 'backup' | 'restore'

const Holder = z.object({ kind: z.enum(['server', 'backup', 'restore']), pid: z.number() })
export type Holder = z.infer<typeof Holder>

const WHAT: Record<HolderKind, string> = { server: 'a running server', backup: 'a backup (npm run backup)', restore: 'a restore (npm run restore)' }

/** Another live process holds the data folder. */
export class DataDirBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | null,
  ) {
    super(`${dataDir} is in use by ${holder === null ? 'another process that does not answer' : `${WHAT[holder.kind]}, process ${holder.pid}`}`)
  }
}

/**
 * Where the socket goes when DATA_DIR/control/holder.sock is too long for a Unix socket (107
 * bytes at most): a folder of the temporary folder made by mkdtemp (0700, a name nobody can
 * guess), whose path DATA_DIR/control/socket-folder records, so every process of the server's
 * user finds it. A name another local user could predict would let them bind it first and answer
 * as the server (naming a folder for `npm run backup` to remove afterwards); so the folder is used
 * only while it is a real folder of this process's user that no one else may enter, and otherwise
 * a new one is made.
 */
const SOCKET_FOLDER_RECORD = 'socket-folder'

const insideSocket = (dataDir: string): string => join(dataDir, 'control', 'holder.sock')
const fitsInside = (dataDir: string): boolean => Buffer.byteLength(insideSocket(dataDir)) <= 100

/** Whether `folder` is a folder (not a link) of this process's user that no other user may enter. */
export async function isPrivateFolder(folder: string): Promise<boolean> {
  const stats = await lstat(folder).catch(() => null)
  if (stats === null || !stats.isDirectory()) return false
  const uid = process.getuid?.()
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o077) === 0
}

/** The recorded socket folder, when it is still this user's private folder; null otherwise. */
async function recordedFolder(dataDir: string): Promise<string | null> {
  let folder: string
  try {
    folder = (await readFile(join(dataDir, 'control', SOCKET_FOLDER_RECORD), 'utf8')).trim()
  } catch (error) {
    if (isCode(error, 'ENOENT')) return null
    throw error
  }
  return isAbsolute(folder) && (await isPrivateFolder(folder)) ? folder : null
}

/**
 * The socket's path for a process looking for the holder: null when there can be none (a long
 * DATA_DIR whose recorded folder is gone or is not this user's private folder).
 */
export async function holderSocket(dataDir: string): Promise<string | null> {
  if (fitsInside(dataDir)) return insideSocket(dataDir)
  const folder = await recordedFolder(dataDir)
  return folder === null ? null : join(folder, 'holder.sock')
}

/** The socket's path for a process about to hold the folder: the recorded folder, or a new one recorded. */
async function socketToHold(dataDir: string): Promise<string> {
  const found = await holderSocket(dataDir)
  if (found !== null) return found
  const folder = await mkdtemp(join(tmpdir(), 'back-office-'))
  await chmod(folder, 0o700)
  const record = join(dataDir, 'control', SOCKET_FOLDER_RECORD)
  const partial = `${record}.${process.pid}`
  await writeFile(partial, `${folder}\n`, { mode: 0o600 })
  await rename(partial, record)
  return join(folder, 'holder.sock')
}

export interface DataDirHold {
  readonly dataDir: string
  /** The server answers POST /snapshot with this (the folder of a new snapshot). */
  onSnapshot(make: () => Promise<string>): void
  release(): Promise<void>
}

/**
 * Takes the data folder for this process, or throws DataDirBusy naming the live holder. A socket
 * left by a dead holder is removed and taken over.
 */
export async function holdDataDir(dataDir: string, kind: HolderKind): Promise<DataDirHold> {
  const folder = join(dataDir, 'control')
  await mkdir(folder, { recursive: true, mode: 0o700 })
  await chmod(folder, 0o700)
  let path = await socketToHold(dataDir)
  let snapshot: (() => Promise<string>) | null = null
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.method === 'GET' && req.url === '/') return answer(200, { kind, pid: process.pid } satisfies Holder)
    if (req.method === 'POST' && req.url === '/snapshot') {
      const make = snapshot
      if (make === null) return answer(409, { message: `${WHAT[kind]} holds this data folder and makes no snapshots` })
      make().then(
        (dir) => answer(200, { dir }),
        (error: unknown) => answer(500, { message: error instanceof Error ? error.message : String(error) }),
      )
      return
    }
    answer(404, { message: 'Not found' })
  })
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, path)
      // Two processes recording a new folder at once: the one whose folder the record kept holds.
      if (!fitsInside(dataDir) && (await holderSocket(dataDir)) !== path) {
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await rmdir(dirname(path)).catch(() => {})
        if (attempt >= 2) throw new Error(`Could not record the control socket's folder in ${join(folder, SOCKET_FOLDER_RECORD)}`)
        path = await socketToHold(dataDir)
        continue
      }
      break
    } catch (error) {
      if (!isCode(error, 'EADDRINUSE') || attempt >= 2) throw error
      const holder = await askHolder(path)
      if (holder !== 'gone') throw new DataDirBusy(dataDir, holder)
      // Left by a process that died: nothing accepts on it.
      await unlink(path).catch((unlinkError: unknown) => {
        if (!isCode(unlinkError, 'ENOENT')) throw unlinkError
      })
    }
  }
  // The folder is 0700 already; the socket too, where it had to go to the temporary folder.
  await chmod(path, 0o600)
  // The hold answers while the process runs for other reasons; it never keeps it running.
  server.unref()
  return {
    dataDir,
    onSnapshot(make) {
      snapshot = make
    },
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => reject(error)
    server.once('error', failed)
    server.listen(path, () => {
      server.off('error', failed)
      resolve()
    })
  })
}

/**
 * Who holds the folder: the holder, null when one accepts but does not say within a few seconds
 * (busy: still a holder), 'gone' when nobody accepts (no socket, or one a dead process left).
 */
export async function askHolder(path: string | null): Promise<Holder | null | 'gone'> {
  if (path === null) return 'gone'
  try {
    const { status, body } = await call(path, 'GET', '/', 5000)
    return status === 200 ? Holder.parse(body) : null
  } catch (error) {
    if (isCode(error, 'ECONNREFUSED') || isCode(error, 'ENOENT')) return 'gone'
    return null
  }
}

/** The live holder of a data folder: null when none, 'silent' when one accepts but does not answer (busy). */
export async function holderOf(dataDir: string): Promise<Holder | 'silent' | null> {
  const holder = await askHolder(await holderSocket(dataDir))
  if (holder === 'gone') return null
  return holder ?? 'silent'
}

/** Asks the running server for a snapshot of its database and uploads; answers its folder. */
export async function requestSnapshot(dataDir: string): Promise<string> {
  // The copy holds the server's requests back while it runs; a big database takes a while.
  const path = await holderSocket(dataDir)
  if (path === null) throw new Error(`No server holds ${dataDir} any more`)
  const { status, body } = await call(path, 'POST', '/snapshot', 30 * 60_000)
  const parsed = z.object({ dir: z.string() }).or(z.object({ message: z.string() })).parse(body)
  if (status !== 200 || !('dir' in parsed)) throw new Error(`The running server could not make a snapshot: ${'message' in parsed ? parsed.message : `status ${status}`}`)
  return parsed.dir
}

function call(socketPath: string, method: 'GET' | 'POST', path: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, timeout: timeoutMs }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer on ${socketPath} within ${Math.round(timeoutMs / 1000)} s`)))
    req.on('error', reject)
    req.end()
  })
}
