/**
 * `--only=games`: the games list (`/api/admin/listCms`) with 10,000 games, on one engine. Games
 * are seeded with INSERT ... SELECT from generate_series (bench/seed.ts), then the real server
 * starts in a child process and the list is asked for as the Games screen asks (limit 10): page 1,
 * the last page, a title search and a category filter, each a series of sequential requests after
 * warm-ups, with p50/p95 by nearest rank.
 */
import { listCms } from '../contract/games.ts'
import type { Engine } from './engines.ts'
import { bearer, latency, login, ms, printRows, series, startServer, type Latency } from './lib.ts'
import { CATEGORY_NAMES, TITLE_ADJECTIVES, TITLE_NOUNS, seedGames, type SeedReport } from './seed.ts'

/** The Games screen's page size. */
export const GAMES_LIMIT = 10
const WARMUP = 2
/**
 * Ours, the issue sets none: the leads' search target (p95 under 25 ms on PostgreSQL), which a
 * list of 10,000 rows should meet in every one of its four questions.
 */
export const GAMES_P95_TARGET_MS = 25

export interface GamesResult {
  engine: Engine['engine']
  version: string
  games: number
  seed: SeedReport
  page1: Latency
  lastPage: Latency & { page: number }
  search: Latency & { terms: string[]; avgMatches: number }
  category: Latency & { categories: number; avgMatches: number }
}

/** Words staff would type, one per request in turn: each matches one title in 12 or 15. */
const SEARCH_TERMS = [...TITLE_ADJECTIVES, ...TITLE_NOUNS].map((w) => w.toLowerCase())

export async function benchGames(e: Engine, games: number, requests: number, log: (s: string) => void): Promise<GamesResult> {
  log(`${e.engine}: seeding ${games.toLocaleString('en')} games in ${CATEGORY_NAMES.length} categories in ${e.where}`)
  const seed = await e.session((sql) => seedGames(sql, games))
  const server = await startServer(e.env)
  try {
    const token = await login(server.base)
    const list = (params: Record<string, string | number>) =>
      `${server.base}/api/admin/listCms?${new URLSearchParams(Object.entries({ limit: GAMES_LIMIT, ...params }).map(([k, v]) => [k, String(v)]))}`
    const lastPage = Math.ceil(games / GAMES_LIMIT)
    const measured = async (make: (i: number) => string) => {
      await series(Array.from({ length: WARMUP }, (_, i) => make(i + requests)), token)
      return series(Array.from({ length: requests }, (_, i) => make(i)), token)
    }
    const term = (i: number) => SEARCH_TERMS[i % SEARCH_TERMS.length] ?? 'quest'
    const categoryId = (i: number) => seed.categoryIds[i % seed.categoryIds.length] ?? ''

    log(`${e.engine}: listCms page 1, page ${lastPage}, title search, category filter (${WARMUP} warm-up + ${requests} each)`)
    const page1 = await measured(() => list({ page: 1 }))
    const last = await measured(() => list({ page: lastPage }))
    const search = await measured((i) => list({ page: 1, search: term(i) }))
    const category = await measured((i) => list({ page: 1, category: categoryId(i) }))

    const counts = async (urls: string[]) => {
      let sum = 0
      for (const url of urls) {
        const { result, count } = listCms.output.parse(await (await fetch(url, { headers: { authorization: bearer(token) } })).json())
        if (result.length === 0) throw new Error(`listCms answered no games for ${url}`)
        sum += count
      }
      return sum / urls.length
    }
    const lastRows = await counts([list({ page: lastPage })])
    if (lastRows !== games) throw new Error(`listCms counted ${lastRows} games, ${games} were seeded`)
    return {
      engine: e.engine,
      version: e.version,
      games,
      seed: { rows: seed.rows, insertSeconds: seed.insertSeconds, indexSeconds: seed.indexSeconds },
      page1: latency(page1),
      lastPage: { ...latency(last), page: lastPage },
      search: { ...latency(search), terms: SEARCH_TERMS, avgMatches: await counts(SEARCH_TERMS.map((_, i) => list({ search: term(i) }))) },
      category: { ...latency(category), categories: seed.categoryIds.length, avgMatches: await counts(seed.categoryIds.map((_, i) => list({ category: categoryId(i) }))) },
    }
  } finally {
    await server.stop()
  }
}

export function printGames(results: readonly GamesResult[], requests: number): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\n${first.games.toLocaleString('en')} games, listCms limit ${GAMES_LIMIT}, ${requests} requests per series, p50 / p95 ms`)
  const rows = results.map((r) => [r.version, ms(r.page1), ms(r.lastPage), ms(r.search), ms(r.category), `${r.search.avgMatches.toFixed(0)} / ${r.category.avgMatches.toFixed(0)}`])
  rows.push(['target (PostgreSQL, ours)', `p95 < ${GAMES_P95_TARGET_MS}`, `p95 < ${GAMES_P95_TARGET_MS}`, `p95 < ${GAMES_P95_TARGET_MS}`, `p95 < ${GAMES_P95_TARGET_MS}`, ''])
  printRows(['engine', 'page 1', `page ${first.lastPage.page} (last)`, 'title search', 'category filter', 'matches search / category'], rows)
}
