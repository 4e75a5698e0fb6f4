/**
 * `npm run lock:complete`: after `npm install`, adds to package-lock.json the other platforms'
 * optional binary packages (rollup's and tailwind's per-platform builds) that npm left out, so
 * that `npm ci` accepts the lock on every machine.
 *
 * Why: npm writes into the lock only the optional packages it could read from the registry, and
 * a registry mirror that serves just this platform's binaries leaves the rest out; `npm ci` then
 * refuses the lock as out of sync. Each added entry carries the package's version and its os /
 * cpu / libc, read from its name the way these packages are named (`rollup-darwin-arm64`,
 * `oxide-linux-x64-musl`), so npm skips it on other platforms without fetching it and fetches it
 * by version where it applies (no integrity is recorded for a package this registry cannot serve).
 */
import { readFileSync, writeFileSync } from 'node:fs'

const OSES = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'android', 'openharmony', 'sunos', 'aix']
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'riscv64', 'ppc64', 's390x', 'mips64el', 'wasm32']

type Entry = { optionalDependencies?: Record<string, string> } & Record<string, unknown>
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const optionalDeps = (entry: unknown): Record<string, string> => {
  const deps = isRecord(entry) ? entry['optionalDependencies'] : undefined
  if (!isRecord(deps)) return {}
  return Object.fromEntries(Object.entries(deps).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])))
}

/** The os / cpu / libc a platform package is for, from its name; null for a package that is not one. */
export function platformOf(name: string): { os?: string[]; cpu?: string[]; libc?: string[] } | null {
  const parts = (name.split('/').pop() ?? name).split('-')
  const os = parts.find((p) => OSES.includes(p))
  const cpu = parts.find((p) => CPUS.includes(p))
  if (os === undefined && cpu === undefined) return null
  const musl = parts.some((p) => p === 'musl' || p === 'musleabihf')
  return {
    ...(os === undefined ? {} : { os: [os] }),
    ...(cpu === undefined ? {} : { cpu: [cpu] }),
    ...(os === 'linux' ? { libc: [musl ? 'musl' : 'glibc'] } : {}),
  }
}

export function completeLock(text: string): { text: string; added: number } {
  const lock: unknown = JSON.parse(text)
  if (!isRecord(lock) || !isRecord(lock['packages'])) throw new Error('package-lock.json has no packages')
  const packages: Record<string, unknown> = { ...lock['packages'] }
  let added = 0
  for (const [key, entry] of Object.entries(lock['packages'])) {
    for (const [dep, range] of Object.entries(optionalDeps(entry))) {
      const top = `node_modules/${dep}`
      const nested = key === '' ? top : `${key}/node_modules/${dep}`
      if (packages[top] !== undefined || packages[nested] !== undefined) continue
      const platform = platformOf(dep)
      // fsevents and other plain optional packages are not platform builds: left to npm.
      if (platform === null) continue
      const entryFor: Entry = { version: range.replace(/^[\^~=]/, ''), optional: true, ...platform }
      packages[top] = entryFor
      added += 1
    }
  }
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)))
  return { text: `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`, added }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = new URL('../package-lock.json', import.meta.url)
  const { text, added } = completeLock(readFileSync(file, 'utf8'))
  writeFileSync(file, text)
  console.log(`package-lock.json: ${added} platform package entries added`)
}
