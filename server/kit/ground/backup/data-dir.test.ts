/**
 * The control socket of a long DATA_DIR (server/kit/ground/backup/data-dir.ts), which cannot live in the
 * data folder and goes to the temporary folder: another local user must not be able to answer as
 * the server there, and `npm run backup` removes nothing but a snapshot folder of its data folder.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, type Config } from '../../../config.ts'
import { openDb } from '../../../db/index.ts'
import { holdDataDir, holderOf } from './data-dir.ts'
import { backupToFile } from './write.ts'

let root: string
let config: Config
let victim: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bo-data-dir-'))
  // Deeper than a Unix socket's path may be.
  const dataDir = join(root, 'a-data-folder-deeper-than-a-unix-socket-path-may-be', 'x'.repeat(60))
  config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'k'.repeat(40) })
  const handle = await openDb(config.database)
  await handle.close()
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** A folder someone cares about, which a backup must never remove. */
async function precious(): Promise<string> {
  victim = await mkdtemp(join(root, 'precious-'))
  await writeFile(join(victim, 'keep.txt'), 'mine')
  return victim
}

/** Answers as a running server would, naming `dir` as its snapshot. */
async function pretender(path: string, dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(req.method === 'POST' ? { dir } : { kind: 'server', pid: 1 }))
  })
  await mkdir(dirname(path), { recursive: true })
  await new Promise<void>((resolve) => server.listen(path, resolve))
  return server
}
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

describe('the control socket of a long DATA_DIR', () => {
  it('is not at a name another user can predict: a socket bound there first is ignored, and the folder it names is not removed', async () => {
    const dir = await precious()
    // The name a hash of DATA_DIR gives in the temporary folder, bound by someone else first.
    const guessed = join(tmpdir(), `back-office-${createHash('sha256').update(config.dataDir).digest('hex').slice(0, 16)}.sock`)
    const server = await pretender(guessed, dir)
    try {
      expect(await holderOf(config.dataDir)).toBeNull()
      const summary = await backupToFile(config, join(root, 'one.backup'))
      expect(summary.via).toMatch(/no server running/)
      expect(await readFile(join(dir, 'keep.txt'), 'utf8')).toBe('mine')
    } finally {
      await closed(server)
      await rm(guessed, { force: true })
    }
  })

  it('is in a 0700 folder of this user, and a recorded folder that is not (another owner, open to others) is not used', async () => {
    const hold = await holdDataDir(config.dataDir, 'server')
    const record = join(config.dataDir, 'control', 'socket-folder')
    const folder = (await readFile(record, 'utf8')).trim()
    try {
      expect((await stat(folder)).mode & 0o777).toBe(0o700)
      expect((await stat(folder)).uid).toBe(process.getuid?.())
      expect(await holderOf(config.dataDir)).toMatchObject({ kind: 'server', pid: process.pid })
    } finally {
      await hold.release()
    }
    // Someone else's folder, or one anybody may enter, with a pretender inside.
    const foreign = await mkdtemp(join(tmpdir(), 'bo-foreign-'))
    const uid = process.getuid?.() ?? 0
    if (uid === 0) await chown(foreign, 1000, 1000)
    else await chmod(foreign, 0o777)
    const server = await pretender(join(foreign, 'holder.sock'), await precious())
    await writeFile(record, `${foreign}\n`)
    try {
      expect(await holderOf(config.dataDir)).toBeNull()
      const again = await holdDataDir(config.dataDir, 'backup')
      const made = (await readFile(record, 'utf8')).trim()
      expect(made).not.toBe(foreign)
      expect((await stat(made)).mode & 0o777).toBe(0o700)
      await again.release()
    } finally {
      await closed(server)
      await rm(foreign, { recursive: true, force: true })
    }
  })

  it('removes only a snapshot folder of the data folder: a holder naming another folder is refused, the folder kept', async () => {
    const dir = await precious()
    const hold = await holdDataDir(config.dataDir, 'server')
    hold.onSnapshot(async () => dir)
    try {
      await expect(backupToFile(config, join(root, 'two.backup'))).rejects.toThrow(/no snapshot folder of .*snapshots: nothing was read or removed/)
      expect(existsSync(join(dir, 'keep.txt'))).toBe(true)
      hold.onSnapshot(async () => join(config.dataDir, 'snapshots', '..', '..', 'elsewhere'))
      await expect(backupToFile(config, join(root, 'two.backup'))).rejects.toThrow(/no snapshot folder/)
    } finally {
      await hold.release()
    }
  })
})
