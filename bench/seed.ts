/**
 * Seeding a million leads quickly, on either engine, through one SQL path.
 *
 * Rows come from generate_series inside the database (no data crosses the wire), with varied
 * names, emails, operating systems, wallet addresses and providers so that searches and the
 * trigram index see realistic spread. The table's secondary indexes are dropped before the insert
 * and recreated from their own definitions afterwards: building a GIN index once is several
 * times faster than maintaining it row by row, and reading the definitions back from pg_indexes
 * keeps the bench honest to whatever the migrations declare.
 */

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

const arr = (xs: readonly string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`

/** The email of lead number i, as the seed writes it (used to choose search fragments). */
export function emailOf(i: number): string {
  const first = FIRST[i % FIRST.length]!.toLowerCase()
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!.toLowerCase()
  return `${first}.${last}${i}@${DOMAINS[Math.floor(i / 7) % DOMAINS.length]}`
}

/** One INSERT ... SELECT for rows [from, to]. Newest lead first: created_at falls as i grows. */
function insertSql(from: number, to: number): string {
  const f = FIRST.length
  const l = LAST.length
  return `
INSERT INTO leads (created_at, name, email, operatingsystem, walletaddress, provider)
SELECT now() - make_interval(secs => i * 31),
       (${arr(FIRST)})[1 + i % ${f}] || ' ' || (${arr(LAST)})[1 + (i / ${f}) % ${l}],
       lower((${arr(FIRST)})[1 + i % ${f}]) || '.' || lower((${arr(LAST)})[1 + (i / ${f}) % ${l}]) || i
         || '@' || (${arr(DOMAINS)})[1 + (i / 7) % ${DOMAINS.length}],
       (array['Android','ios'])[1 + (i / 3) % 2],
       '0x' || substr(md5(i::text) || md5((i::bigint * 7919)::text), 1, 40),
       (array['ipfs','web3auth'])[1 + (i / 11) % 2]
FROM generate_series(${from}, ${to}) AS s(i)`
}

export interface SeedReport {
  rows: number
  insertSeconds: number
  indexSeconds: number
}

/**
 * Empties `leads` and fills it with `rows` leads numbered 1..rows. Inserts in batches so PGlite's
 * WASM heap never holds one giant statement's worth of tuples at once.
 */
export async function seedLeads(sql: Sql, rows: number, batch = 250_000): Promise<SeedReport> {
  const { rows: found } = await sql.query(
    `select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = 'leads'
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  )
  // The shape is fixed by the select list above.
  const indexes = found as { indexname: string; indexdef: string }[]
  await sql.exec('TRUNCATE leads')
  for (const ix of indexes) await sql.exec(`DROP INDEX "${ix.indexname}"`)
  const t0 = performance.now()
  for (let from = 1; from <= rows; from += batch) {
    await sql.exec(insertSql(from, Math.min(rows, from + batch - 1)))
  }
  const t1 = performance.now()
  for (const ix of indexes) await sql.exec(ix.indexdef)
  await sql.exec('ANALYZE leads')
  const t2 = performance.now()
  return { rows, insertSeconds: (t1 - t0) / 1000, indexSeconds: (t2 - t1) / 1000 }
}
