/**
 * `npm run fault:upload`: kill -9 during an upload. On PGlite (a data folder)
 * and on PostgreSQL (a throwaway cluster of its own, scripts/fault-kit.ts):
 *
 * - midway: a category with a large image (about 3.6 MB, a real PNG) is sent slowly; once the
 *   server is writing it to its staging file, the process gets SIGKILL;
 * - before the row (PostgreSQL): a whole upload is sent while the script holds the categories
 *   table locked, so the call stops at its first query with the file already stored under
 *   uploads/ and no row written; then SIGKILL. PGlite runs in the server's own process, so nothing
 *   outside it can hold it at that point; there only the midway kill runs.
 *
 * The server then starts again on the same data and, stopped once more, the data is checked:
 * nothing left under tmp/, no file under uploads/ that no row names (thumbnails go with their
 * original), and no row (every upload column of schema.ts) naming a file that is not there. A
 * category stored before the kill must keep its files. The sweep at start takes a leftover once
 * it is older than UPLOAD_SWEEP_GRACE_MINUTES (the time another instance sharing the folder may
 * still be storing it): the script sets a short grace and restarts after it, as a restart later
 * than the default 10 minutes would find it.
 *
 * Prints `fault <name>: PASS` or `fault <name>: FAIL: reason` per check and exits 1 on a failure.
 * Option: --engines=pglite,postgres.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { addcategory } from '../contract/catalog.ts'
import { loadConfig, type Config } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
import { encodePng } from '../server/db/png.ts'
import { categories } from '../server/db/schema.ts'
import { API_PREFIX } from '../server/kit/ground/services.ts'
import { thumbOf } from '../server/kit/ground/media.ts'
import { isStoredName, referencedUploads } from '../server/kit/ground/sweep.ts'
import { TempCluster, log, login, report, sleep, startServer, stopServer, waitFor, type Check, type ServerChild } from './fault-kit.ts'

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k ?? '', v ?? 'true'] as const
  }),
)
const ENGINES = (args.get('engines') ?? 'pglite,postgres').split(',')
/** 1.2 s: a leftover the killed process left is older than this by the time the server starts again. */
const GRACE_MINUTES = 0.02

/** A real PNG of noise (it does not compress), 1100 x 1100: about 3.6 MB, under the 5 MB image limit. */
function largePng(): Buffer {
  let state = 0x2545f491
  const next = (): number => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state & 0xff
  }
  return encodePng(1100, 1100, () => [next(), next(), next()])
}

/** The addcategory form as bytes, with its content type (the boundary). */
async function categoryForm(name: string, image: Buffer): Promise<{ body: Buffer; type: string }> {
  const form = new FormData()
  form.append('categoryName', name)
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), `${name}.png`)
  const req = new Request('http://localhost/', { method: 'POST', body: form })
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type') ?? '' }
}

/**
 * Sends a form: the first `sendBytes` of it in small pieces (the rest never, when fewer than all),
 * and resolves the answer's status, or 0 when the connection ended without one.
 */
function send(server: ServerChild, token: string, form: { body: Buffer; type: string }, sendBytes = form.body.length): { answered: Promise<number>; abort: () => void } {
  const url = new URL(`${API_PREFIX}${addcategory.path}`, server.base)
  const req = request(url, { method: 'POST', headers: { authorization: token, 'content-type': form.type, 'content-length': String(form.body.length) } })
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.on('close', () => resolve(0))
  })
  void (async () => {
    const piece = 64 * 1024
    for (let at = 0; at < sendBytes && !req.destroyed; at += piece) {
      const chunk = form.body.subarray(at, Math.min(at + piece, sendBytes))
      if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve))
      await sleep(5)
    }
    if (sendBytes >= form.body.length && !req.destroyed) req.end()
  })()
  return { answered, abort: () => req.destroy() }
}

/** Where this deployment's uploads are on the disk: its STORAGE_PREFIX folder (the folder itself when empty). */
const uploadsOf = (config: Config): string => path.join(config.uploadsDir, config.storagePrefix)

const filesOf = (dir: string): string[] => {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** The data after the restart, with no server running: what is left over, what is missing. */
async function inspect(config: Config, mustKeep: readonly string[]): Promise<string[]> {
  const problems: string[] = []
  const leftovers = filesOf(config.tmpDir)
  if (leftovers.length > 0) problems.push(`${leftovers.length} files left under tmp/ (${leftovers.slice(0, 3).join(', ')})`)
  const handle = await openDb(config.database)
  let referenced: Set<string>
  try {
    referenced = await referencedUploads(handle.db)
  } finally {
    await handle.close()
  }
  const present = new Set(filesOf(uploadsOf(config)))
  const thumbnails = new Set([...referenced].map(thumbOf))
  const orphans = [...present].filter((name) => !referenced.has(name) && !thumbnails.has(name))
  if (orphans.length > 0) problems.push(`${orphans.length} files under uploads/ that no row names (${orphans.slice(0, 3).join(', ')})`)
  // Every image column here holds images, which always have their thumbnail beside them.
  const missing = [...referenced].filter((name) => !present.has(name) || (/\.(png|jpg)$/.test(name) && !present.has(thumbOf(name))))
  if (missing.length > 0) problems.push(`${missing.length} rows name a file (or its thumbnail) that is not there (${missing.slice(0, 3).join(', ')})`)
  for (const name of mustKeep) if (!referenced.has(name)) problems.push(`the category stored before the kill lost its image ${name}`)
  return problems
}

/** The stored image names of the categories, by name. */
async function categoryImages(config: Config): Promise<Map<string, string>> {
  const handle = await openDb(config.database)
  try {
    const rows = await handle.db.select({ name: categories.categoryName, image: categories.image }).from(categories)
    return new Map(rows.map((r) => [r.name, r.image]))
  } finally {
    await handle.close()
  }
}

/** Waits until the grace period has passed since `killedAt`, so the sweep at start may take the leftovers. */
const pastGrace = (killedAt: number): Promise<void> => sleep(Math.max(0, GRACE_MINUTES * 60_000 + 300 - (Date.now() - killedAt)))

async function run(engine: string, env: NodeJS.ProcessEnv, config: Config, work: string): Promise<Check[]> {
  const logFile = path.join(work, `server-${engine}.log`)
  const checks: Check[] = []
  const image = largePng()
  const upload = async (server: ServerChild, name: string): Promise<void> => {
    const status = await send(server, await login(server.base), await categoryForm(name, image)).answered
    if (status !== 200) throw new Error(`the upload of ${name} was answered ${status}`)
  }

  // A category stored properly first: its files must survive everything below.
  let server = await startServer(env, logFile)
  await upload(server, 'Kept')

  // 1. SIGKILL while the image is being received.
  const slow = send(server, await login(server.base), await categoryForm('Midway', image), Math.floor(image.length / 2))
  const writing = await waitFor(() => filesOf(config.tmpDir).some((name) => (statSync(path.join(config.tmpDir, name), { throwIfNoEntry: false })?.size ?? 0) > 256 * 1024), 30_000)
  await stopServer(server, 'SIGKILL')
  const killedAt = Date.now()
  slow.abort()
  const staged = filesOf(config.tmpDir).length
  log(`${engine}: SIGKILL midway through the upload; ${staged} staging file(s) left under tmp/`)
  const midway: string[] = []
  if (!writing || staged === 0) midway.push('the kill did not come while the upload was being written (no staging file)')
  await pastGrace(killedAt)
  server = await startServer(env, logFile)

  if (config.database.kind === 'pglite') {
    // PGlite is the server's own: the data is read with the server stopped, after a new upload.
    await upload(server, 'After')
    await stopServer(server)
    const images = await categoryImages(config)
    if (images.has('Midway')) midway.push('the half-sent category was stored')
    if (!images.has('After')) midway.push('the upload after the restart is not stored')
    midway.push(...(await inspect(config, [images.get('Kept') ?? 'Kept', images.get('After') ?? 'After'])))
    checks.push({ name: `upload-kill-midway-${engine}`, problems: midway })
    return checks
  }

  // PostgreSQL: the data is read beside the running server (no call is in flight).
  const images = await categoryImages(config)
  if (images.has('Midway')) midway.push('the half-sent category was stored')
  midway.push(...(await inspect(config, [images.get('Kept') ?? 'Kept'])))
  checks.push({ name: `upload-kill-midway-${engine}`, problems: midway })

  // 2. SIGKILL with the file stored and its row not yet written: the table is held locked, so the
  // call waits at its first query inside the write's transaction, its file already under uploads/.
  const before = new Set(filesOf(uploadsOf(config)))
  const locker = new pg.Client({ connectionString: config.database.url })
  await locker.connect()
  const problems: string[] = []
  let killedAt2 = 0
  try {
    await locker.query('begin')
    await locker.query('lock table categories in access exclusive mode')
    const whole = send(server, await login(server.base), await categoryForm('Before row', image))
    const blocked = await waitFor(async () => {
      // Inside the locker's transaction pg_stat_activity is read once and kept: drop that copy
      // first, or a call that reaches the lock after the first look is never seen waiting.
      await locker.query('select pg_stat_clear_snapshot()')
      const { rows } = await locker.query("select 1 from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()")
      return rows.length > 0
    }, 30_000)
    const stored = filesOf(uploadsOf(config)).filter((name) => !before.has(name) && isStoredName(name))
    await stopServer(server, 'SIGKILL')
    killedAt2 = Date.now()
    whole.abort()
    log(`${engine}: SIGKILL with the upload stored (${stored.join(', ') || 'none'}) and its row not written`)
    if (!blocked || stored.length === 0) problems.push('the kill did not come between the stored file and its row')
    await locker.query('rollback')
  } finally {
    await locker.end()
  }
  await pastGrace(killedAt2)
  server = await startServer(env, logFile)
  await upload(server, 'After')
  const after = await categoryImages(config)
  await stopServer(server)
  if (after.has('Before row')) problems.push('the category whose row was never committed is there')
  if (!after.has('After')) problems.push('the upload after the restart is not stored')
  problems.push(...(await inspect(config, [after.get('Kept') ?? 'Kept', after.get('After') ?? 'After'])))
  checks.push({ name: `upload-kill-before-row-${engine}`, problems })
  return checks
}

async function main(): Promise<boolean> {
  const checks: Check[] = []
  for (const engine of ENGINES) {
    const work = mkdtempSync(path.join(os.tmpdir(), `fault-upload-${engine}-`))
    let cluster: TempCluster | null = null
    try {
      if (engine === 'postgres') cluster = await TempCluster.create()
      const env = { ...process.env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: cluster?.url ?? '', REDIS_URL: '', UPLOAD_SWEEP_GRACE_MINUTES: String(GRACE_MINUTES) }
      checks.push(...(await run(engine, env, loadConfig(env), work)))
    } catch (error) {
      checks.push({ name: `upload-${engine}`, problems: [error instanceof Error ? error.message : String(error)] })
    } finally {
      await cluster?.remove()
      rmSync(work, { recursive: true, force: true })
    }
  }
  return report(checks)
}

process.exit((await main()) ? 0 : 1)
