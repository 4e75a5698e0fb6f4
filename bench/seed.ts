/**
 * Seeding a million leads, or ten thousand games, quickly, on either engine, through one SQL path.
 *
 * Rows come from generate_series inside the database (no data crosses the wire), with varied
 * names, emails, operating systems, wallet addresses and providers so that searches and the
 * trigram index see realistic spread. The table's secondary indexes are dropped before the insert
 * and recreated from their own definitions afterwards: building a GIN index once is several
 * times faster than maintaining it row by row, and reading the definitions back from pg_indexes
 * keeps the bench honest to whatever the migrations declare.
 */
import { z } from 'zod'

/** Anything that runs SQL and returns rows: a PGlite client or a pg pool. */
export interface Sql {
  query(text: string): Promise<{ rows: unknown[] }>
  exec(text: string): Promise<unknown>
}

export const FIRST = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Amelia', 'Oliver', 'Ava', 'Elijah', 'Sophia', 'Lucas',
  'Mia', 'Mateo', 'Isabella', 'Levi', 'Aarav', 'Chloe', 'Diego', 'Fatima', 'Hiro', 'Ingrid',
  'Jamal', 'Kenji', 'Lena', 'Mohammed', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rafael', 'Sakura',
  'Tariq', 'Uma', 'Victor', 'Wei', 'Ximena', 'Yusuf', 'Zara', 'Ana', 'Bilal', 'Carmen',
] as const
export const LAST = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez',
  'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore',
  'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez',
  'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen',
  'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell',
  'Carter', 'Roberts', 'Kim', 'Patel', 'Singh', 'Khan', 'Müller', 'Schmidt', 'Rossi', 'Dubois',
  'Silva', 'Tanaka',
] as const
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com', 'mail.ru', 'gmx.de', 'example.org']

/**
 * Lead countries (ISO 3166 alpha-2, as leads.country holds them), in turn: each holds a tenth of
 * the leads, so a country filter matches 100,000 of a million (the promotions bench sends to one).
 */
export const COUNTRY_CODES = ['US', 'GB', 'DE', 'FR', 'PT', 'BR', 'IN', 'NG', 'JP', 'ES'] as const

const arr = (xs: readonly string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`

/** The email of lead number i, as the seed writes it (used to choose search fragments). */
export function emailOf(i: number): string {
  const first = FIRST[i % FIRST.length]!.toLowerCase()
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!.toLowerCase()
  return `${first}.${last}${i}@${DOMAINS[Math.floor(i / 7) % DOMAINS.length]}`
}

/** One INSERT ... SELECT for rows [from, to]. Newest lead first: created_at falls as i grows. */
export function insertSql(from: number, to: number): string {
  const f = FIRST.length
  const l = LAST.length
  return `
INSERT INTO leads (created_at, name, email, operatingsystem, walletaddress, provider, country)
SELECT now() - make_interval(secs => i * 31),
       (${arr(FIRST)})[1 + i % ${f}] || ' ' || (${arr(LAST)})[1 + (i / ${f}) % ${l}],
       lower((${arr(FIRST)})[1 + i % ${f}]) || '.' || lower((${arr(LAST)})[1 + (i / ${f}) % ${l}]) || i
         || '@' || (${arr(DOMAINS)})[1 + (i / 7) % ${DOMAINS.length}],
       (array['Android','ios'])[1 + (i / 3) % 2],
       '0x' || substr(md5(i::text) || md5((i::bigint * 7919)::text), 1, 40),
       (array['ipfs','web3auth'])[1 + (i / 11) % 2],
       (${arr(COUNTRY_CODES)})[1 + (i / 13) % ${COUNTRY_CODES.length}]
FROM generate_series(${from}, ${to}) AS s(i)`
}

export interface SeedReport {
  rows: number
  insertSeconds: number
  indexSeconds: number
}

/**
 * Empties `tables` and refills them with `fill`, their secondary indexes dropped meanwhile and
 * rebuilt afterwards from their own definitions. Returns the seconds the fill and the rebuild took.
 */
async function refill(sql: Sql, tables: readonly string[], fill: () => Promise<void>): Promise<{ insertSeconds: number; indexSeconds: number }> {
  const list = tables.map((t) => `'${t}'`).join(',')
  const { rows: found } = await sql.query(
    `select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = current_schema() and i.tablename in (${list})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  )
  const indexes = z.array(z.object({ indexname: z.string(), indexdef: z.string() })).parse(found)
  // CASCADE: rows of other tables that point at these (a newsletter's recipients, a promotion's)
  // go too; the bench database holds nothing else worth keeping.
  await sql.exec(`TRUNCATE ${tables.join(', ')} CASCADE`)
  for (const ix of indexes) await sql.exec(`DROP INDEX "${ix.indexname}"`)
  const t0 = performance.now()
  await fill()
  const t1 = performance.now()
  for (const ix of indexes) await sql.exec(ix.indexdef)
  // VACUUM as autovacuum would soon after a bulk load (and the server does on PGlite at start):
  // the rows' hint bits are set and pages marked all-visible before anything is measured.
  for (const t of tables) await sql.exec(`VACUUM (ANALYZE) ${t}`)
  const t2 = performance.now()
  return { insertSeconds: (t1 - t0) / 1000, indexSeconds: (t2 - t1) / 1000 }
}

/**
 * Empties `leads` and fills it with `rows` leads numbered 1..rows. Inserts in batches so PGlite's
 * WASM heap never holds one giant statement's worth of tuples at once.
 */
export async function seedLeads(sql: Sql, rows: number, batch = 250_000): Promise<SeedReport> {
  const times = await refill(sql, ['leads'], async () => {
    for (let from = 1; from <= rows; from += batch) {
      await sql.exec(insertSql(from, Math.min(rows, from + batch - 1)))
    }
  })
  return { rows, ...times }
}

export const CATEGORY_NAMES = [
  'Action', 'Adventure', 'Arcade', 'Board', 'Card', 'Casino', 'Casual', 'Educational', 'Family', 'Music',
  'Puzzle', 'Racing', 'Role Playing', 'Simulation', 'Sports', 'Strategy', 'Trivia', 'Word', 'Shooter', 'Platformer',
] as const
/** Title words: a title is "<adjective> <noun> <number>", so a word matches a share of the games. */
export const TITLE_ADJECTIVES = ['Galactic', 'Crimson', 'Silent', 'Golden', 'Frozen', 'Hidden', 'Wild', 'Neon', 'Ancient', 'Lucky', 'Iron', 'Mystic'] as const
export const TITLE_NOUNS = ['Raiders', 'Kingdom', 'Dragons', 'Legends', 'Racers', 'Puzzle', 'Quest', 'Empire', 'Heroes', 'Tycoon', 'Island', 'Arena', 'Saga', 'Dungeon', 'Voyage'] as const

/** A stored upload's name as the server makes them (a UUID and the kind's extension), from a seed text. */
const fileName = (seed: string, extension: string) => `md5(${seed})::uuid::text || '.${extension}'`

export interface GamesSeed extends SeedReport {
  /** The categories' ids, in the order of CATEGORY_NAMES. */
  categoryIds: string[]
}

/**
 * Empties `games` and `categories` and fills them with CATEGORY_NAMES and `rows` games spread over
 * them in turn, as the games screens would have made them: 1 to 5 images and, for every other
 * game, a video (names only: the list never opens the files), each operating system in turn, a
 * description of about 300 characters, and preferences 1..rows.
 */
export async function seedGames(sql: Sql, rows: number): Promise<GamesSeed> {
  const a = TITLE_ADJECTIVES.length
  const n = TITLE_NOUNS.length
  const times = await refill(sql, ['games', 'categories'], async () => {
    await sql.exec(`
INSERT INTO categories (category_name, image, preference)
SELECT name, ${fileName("'category-' || k", 'png')}, k::int
FROM unnest(${arr(CATEGORY_NAMES)}) WITH ORDINALITY AS c(name, k)`)
    await sql.exec(`
WITH c AS (SELECT array_agg(id ORDER BY preference) AS ids FROM categories)
INSERT INTO games (created_at, title, description, category_id, operatingsystem, live_link, images, video, preference, is_game_backend, "freeze")
SELECT now() - make_interval(secs => i * 61),
       (${arr(TITLE_ADJECTIVES)})[1 + i % ${a}] || ' ' || (${arr(TITLE_NOUNS)})[1 + (i / ${a}) % ${n}] || ' ' || i,
       repeat('A game of skill and chance with daily rewards, tournaments and a leaderboard. ', 4),
       c.ids[1 + i % array_length(c.ids, 1)],
       (array['Android','ios','both'])[1 + (i / 5) % 3],
       'https://play.example.com/games/' || i,
       (SELECT array_agg(${fileName("i || '-' || k", 'png')} ORDER BY k) FROM generate_series(1, 1 + i % 5) AS k),
       CASE WHEN i % 2 = 0 THEN ${fileName("'video-' || i", 'mp4')} ELSE '' END,
       i,
       i % 3 = 0,
       i % 17 = 0
FROM generate_series(1, ${rows}) AS s(i), c`)
  })
  const { rows: ids } = await sql.query('SELECT id FROM categories ORDER BY preference')
  return { rows, ...times, categoryIds: z.array(z.object({ id: z.string() })).parse(ids).map((r) => r.id) }
}
