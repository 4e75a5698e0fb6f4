/**
 * `--only=presence`: who else is there, across two instances. Two real server processes on one
 * PostgreSQL and one Redis (REDIS_URL, else 127.0.0.1:6379), each with its own data folder, as
 * docs/operations.md runs several. Measured with socket.io clients speaking the PWA's events:
 *   - seen: a tab on A has a record open; a tab on B opens it; ms until A hears of B (p50/p95,
 *     target under 2 s), a new record per round;
 *   - stale after 10 s: tabs on B announce records, then go three ways: closed (their sockets
 *     close), silent (their sockets stay open, their heartbeats stop, a frozen browser) and lost
 *     with their instance (B killed with SIGKILL, no goodbye); 10 s later a list on A counts the
 *     announcements still standing (target 0 for each).
 * Skipped with a note when Redis or PostgreSQL does not answer.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { io, type Socket } from 'socket.io-client'
import { PresenceAnswer, PresenceState } from '../contract/presence.ts'
import { REALTIME_TRANSPORTS, SocketEvents } from '../contract/socket.ts'
import { redisAnswers } from '../server/testing/redis-probe.ts'
import { withEngine } from './engines.ts'
import { f1, latency, login, printRows, startServer, type Latency } from './lib.ts'

export const PRESENCE_SEEN_TARGET_MS = 2000
export const PRESENCE_STALE_TARGET = 0
/** The promise: gone within this long of a tab closing or falling silent. */
const STALE_AFTER_MS = 10_000
const EDIT = '/edit-category'
const LIST = '/category'

export interface PresenceResult {
  rounds: number
  seen: Latency
  /** Announcements still standing STALE_AFTER_MS after their tabs closed, fell silent, or lost their instance. */
  stale: { closed: number; silent: number; instanceKilled: number; tabsEach: number }
}

const log = (s: string) => console.log(`[bench] ${s}`)

function connect(base: string, token: string, sockets: Socket[]): Promise<Socket> {
  const socket = io(base, { auth: { token: `Bearer ${token}` }, transports: [...REALTIME_TRANSPORTS], reconnection: false })
  sockets.push(socket)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

async function announce(socket: Socket, id: string): Promise<PresenceAnswer> {
  return PresenceAnswer.parse(await socket.timeout(5000).emitWithAck(SocketEvents.presenceOpen, { screen: EDIT, id, mode: 'edit' }))
}

/** How many of `ids` a list on `socket` still sees someone on. */
async function standing(socket: Socket, ids: ReadonlySet<string>): Promise<number> {
  const answer = PresenceAnswer.parse(await socket.timeout(5000).emitWithAck(SocketEvents.presenceWatch, { screen: LIST }))
  if (!answer.ok) throw new Error(`watch refused: ${answer.message}`)
  return answer.records.filter((r) => ids.has(r.id) && r.people.length > 0).length
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `rounds` timings of "seen on the other instance", and stale counts over `tabs` tabs each way. */
export async function runPresence(rounds: number, tabs: number): Promise<PresenceResult | string> {
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'
  if (!(await redisAnswers(redisUrl))) return `presence needs Redis, and none answers at ${redisUrl} (set REDIS_URL or start redis-server)`
  const outcome = await withEngine('postgres', 'presence', async (e) => {
    const shared = { ...e.env, REDIS_URL: redisUrl, JWT_SECRET: randomBytes(32).toString('hex') }
    const dataDirB = mkdtempSync(path.join(os.tmpdir(), 'bench-presence-b-'))
    const a = await startServer(shared)
    const b = await startServer({ ...shared, DATA_DIR: dataDirB })
    const sockets: Socket[] = []
    try {
      const token = await login(a.base)
      const onA = await connect(a.base, token, sockets)
      const onB = await connect(b.base, token, sockets)
      const tag = Date.now().toString(36)

      log(`presence: ${rounds} rounds of a tab on B opening a record a tab on A has open`)
      const seenMs: number[] = []
      for (let i = 0; i < rounds; i++) {
        const id = `bench-${tag}-seen-${i}`
        await announce(onA, id)
        const heard = new Promise<number>((resolve) => {
          const listener = (raw: unknown) => {
            const state = PresenceState.safeParse(raw)
            if (!state.success || state.data.id !== id || state.data.people.length < 2) return
            onA.off(SocketEvents.presence, listener)
            resolve(performance.now())
          }
          onA.on(SocketEvents.presence, listener)
        })
        const started = performance.now()
        await announce(onB, id)
        const at = await Promise.race([heard, pause(10_000).then(() => Infinity)])
        seenMs.push(at - started)
        await onA.timeout(5000).emitWithAck(SocketEvents.presenceClose, { screen: EDIT, id })
        await onB.timeout(5000).emitWithAck(SocketEvents.presenceClose, { screen: EDIT, id })
      }

      log(`presence: ${tabs} tabs on B each closed, silent, and lost with B`)
      const groups = { closed: new Set<string>(), silent: new Set<string>(), instanceKilled: new Set<string>() }
      const tabsOf = { closed: [] as Socket[], silent: [] as Socket[], instanceKilled: [] as Socket[] }
      for (const kind of ['closed', 'silent', 'instanceKilled'] as const) {
        for (let i = 0; i < tabs; i++) {
          const id = `bench-${tag}-${kind}-${i}`
          const tab = await connect(b.base, token, sockets)
          await announce(tab, id)
          groups[kind].add(id)
          tabsOf[kind].push(tab)
        }
      }
      const all = new Set([...groups.closed, ...groups.silent, ...groups.instanceKilled])
      const before = await standing(onA, all)
      if (before !== all.size) throw new Error(`only ${before} of ${all.size} announcements seen from A before the tabs went`)
      // The worst case: every tab renews just before it goes its way (closed, silent, killed with B),
      // so its announcement has its whole life ahead of it.
      for (const [kind, list] of Object.entries(tabsOf)) for (const [i, tab] of list.entries()) await announce(tab, `bench-${tag}-${kind}-${i}`)
      const wentAt = performance.now()
      for (const tab of tabsOf.closed) tab.close()
      b.child.kill('SIGKILL')
      await pause(Math.max(0, STALE_AFTER_MS - (performance.now() - wentAt)))
      const stale = {
        closed: await standing(onA, groups.closed),
        silent: await standing(onA, groups.silent),
        instanceKilled: await standing(onA, groups.instanceKilled),
        tabsEach: tabs,
      }
      return { rounds, seen: latency(seenMs), stale }
    } finally {
      for (const s of sockets) s.close()
      await b.stop()
      await a.stop()
      rmSync(dataDirB, { recursive: true, force: true })
    }
  })
  return outcome
}

export function printPresence(r: PresenceResult): void {
  console.log(`\nWho else is there: two instances, PostgreSQL and Redis (${r.rounds} rounds; ${r.stale.tabsEach} tabs each way)`)
  printRows(
    ['measure', 'p50', 'p95', 'target'],
    [
      ['seen on the other instance (ms)', f1(r.seen.p50), f1(r.seen.p95), `< ${PRESENCE_SEEN_TARGET_MS}`],
      [`stale ${STALE_AFTER_MS / 1000} s after tabs closed`, String(r.stale.closed), '', String(PRESENCE_STALE_TARGET)],
      [`stale ${STALE_AFTER_MS / 1000} s after tabs fell silent`, String(r.stale.silent), '', String(PRESENCE_STALE_TARGET)],
      [`stale ${STALE_AFTER_MS / 1000} s after their instance was killed`, String(r.stale.instanceKilled), '', String(PRESENCE_STALE_TARGET)],
    ],
  )
}
