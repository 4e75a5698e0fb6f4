/** Small pieces the bench shares: the server child, /proc readings, HTTP timing, percentiles. */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export const ADMIN_EMAIL = 'bench@example.com'
/** Meets the password rule of requirements R5.2 (6-18, digit, upper, lower, special). */
export const ADMIN_PASSWORD = 'Bench#2024pw'

export interface ServerChild {
  child: ChildProcess
  pid: number
  base: string
  stop: () => Promise<void>
}

/**
 * Starts bench/server.ts in a plain `node --import tsx` process (not the tsx CLI, which would add
 * a wrapper process and put the server one pid further away from our /proc readings). Its log is
 * at warn unless the environment says otherwise, so it does not bury the bench's own lines; with
 * `logFile` it logs as shipped (LOG_LEVEL as given, the server's default otherwise) into that
 * file, as a service's log goes to a journal rather than a terminal.
 */
export function startServer(env: NodeJS.ProcessEnv, timeoutMs = 180_000, options: { logFile?: string } = {}): Promise<ServerChild> {
  return new Promise((resolve, reject) => {
    const logFd = options.logFile === undefined ? null : openSync(options.logFile, 'w')
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'server.ts')], {
      cwd: root,
      env: logFd === null ? { ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'warn', ADMIN_EMAIL, ADMIN_PASSWORD } : { ...env, ADMIN_EMAIL, ADMIN_PASSWORD },
      stdio: ['ignore', logFd ?? 'inherit', 'inherit', 'ipc'],
    })
    // The child holds its own copy of the descriptor.
    if (logFd !== null) closeSync(logFd)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`server exited before listening (code ${code}, signal ${signal})`))
    })
    child.once('message', (msg: unknown) => {
      clearTimeout(timer)
      const port = typeof msg === 'object' && msg !== null && 'port' in msg ? Number(msg.port) : 0
      if (!port || child.pid === undefined) return reject(new Error('server reported no port'))
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done()
          const kill = setTimeout(() => child.kill('SIGKILL'), 15_000)
          child.removeAllListeners('exit')
          child.once('exit', () => {
            clearTimeout(kill)
            done()
          })
          child.kill('SIGTERM')
        })
      child.removeAllListeners('exit')
      resolve({ child, pid: child.pid, base: `http://127.0.0.1:${port}`, stop })
    })
  })
}

/** VmRSS and VmHWM (peak) of a process, in MiB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMiB: number; hwmMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 }
}

/**
 * Resets the kernel's peak-RSS mark of a process (writing 5 to clear_refs), so VmHWM afterwards
 * is the peak of what follows. Returns false where that is not allowed; callers then rely on
 * sampling VmRSS.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const body: unknown = await res.json()
  const signedIn = z.object({ status: z.literal('success'), token: z.string() }).safeParse(body)
  if (!signedIn.success) throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(body)}`)
  return signedIn.data.token
}

/** The Authorization header value, whether or not the token already carries the prefix. */
export const bearer = (token: string) => (token.startsWith('Bearer ') ? token : `Bearer ${token}`)

/** Milliseconds for one GET, body fully read; throws on a non-2xx answer. */
export async function timeGet(url: string, token: string): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(url, { headers: { authorization: bearer(token) } })
  const body = await res.arrayBuffer()
  const ms = performance.now() - t0
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${Buffer.from(body).toString('utf8', 0, 300)}`)
  return ms
}

/** Nearest-rank percentile: with 20 samples, p50 is the 10th smallest and p95 the 19th. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] ?? NaN
}

/** A deterministic PRNG (mulberry32), so every run asks the same questions. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Latency {
  p50: number
  p95: number
  min: number
  max: number
}

export function latency(samples: number[]): Latency {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), min: Math.min(...samples), max: Math.max(...samples) }
}

/** Times the GETs one after another (a person paging, not a crowd). */
export async function series(urls: string[], token: string): Promise<number[]> {
  const out: number[] = []
  for (const u of urls) out.push(await timeGet(u, token))
  return out
}

/** Watches a process's peak RSS while `work` runs: VmHWM reset before it where allowed, VmRSS sampled every 25 ms besides. */
export async function watchPeak<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; rssBeforeMiB: number; peakRssMiB: number; peakFrom: string }> {
  const before = memoryOf(pid)
  const reset = resetPeak(pid)
  let sampled = before.rssMiB
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, memoryOf(pid).rssMiB)
    } catch {
      // The process may be gone; the error surfaces through the work instead.
    }
  }, 25)
  try {
    const value = await work()
    const after = memoryOf(pid)
    const peak = reset ? Math.max(after.hwmMiB, sampled) : sampled
    return { value, rssBeforeMiB: before.rssMiB, peakRssMiB: peak, peakFrom: reset ? 'VmHWM, reset just before' : 'VmRSS sampled every 25 ms' }
  } finally {
    clearInterval(sampler)
  }
}

/** An export's figures: time, rows (lines after the header), bytes, and the server's peak memory meanwhile. */
export interface ExportResult {
  seconds: number
  rows: number
  rowsPerSecond: number
  bytes: number
  peakRssMiB: number
  rssBeforeMiB: number
  peakFrom: string
}

/** Streams the whole CSV, counting rows by newlines, while watching the server's memory. */
export async function exportCsv(url: string, token: string, pid: number): Promise<ExportResult> {
  const t0 = performance.now()
  const watched = await watchPeak(pid, async () => {
    const res = await fetch(url, { headers: { authorization: bearer(token) } })
    if (!res.ok || !res.body) throw new Error(`${url}: HTTP ${res.status}`)
    let bytes = 0
    let newlines = 0
    const reader = res.body.getReader()
    for (;;) {
      const { done, value: buf } = await reader.read()
      if (done) break
      bytes += buf.length
      // indexOf is a native scan: the client must not steal CPU from the server it measures.
      const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) newlines++
    }
    return { bytes, newlines }
  })
  const seconds = (performance.now() - t0) / 1000
  // Seeded values hold no newline, so lines = rows + the header line.
  const rows = watched.value.newlines - 1
  return {
    seconds,
    rows,
    rowsPerSecond: rows / seconds,
    bytes: watched.value.bytes,
    peakRssMiB: watched.peakRssMiB,
    rssBeforeMiB: watched.rssBeforeMiB,
    peakFrom: watched.peakFrom,
  }
}

export const f1 = (n: number): string => n.toFixed(1)
/** p50 / p95 in ms. */
export const ms = (l: Latency): string => `${f1(l.p50)} / ${f1(l.p95)}`

/** Prints a table with padded columns, the header underlined. */
export function printRows(head: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
  for (const r of rows) console.log(line(r))
}
