/**
 * CSV writing for exports. Cells that a spreadsheet would run as a formula (starting with
 * = + - @, tab or carriage return) get a leading single quote, so an exported lead named
 * `=HYPERLINK(...)` stays text. The SQL twin of `neutralise` is `neutraliseSql` below, used by
 * the PostgreSQL COPY export; both must agree (the export test checks it on both engines).
 */

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r'])

export function neutralise(value: string): string {
  return value.length > 0 && FORMULA_START.has(value[0] ?? '') ? `'${value}` : value
}

/**
 * Quotes a cell the way PostgreSQL's COPY ... CSV does for a line of several columns (empty
 * strings are quoted, unlike NULL; a lone `\.` needs quotes only on a one-column line).
 */
export function csvCell(value: string): string {
  if (value === '' || /[",\r\n]/.test(value)) return `"${value.replace(/"/g, '""')}"`
  return value
}

export const csvLine = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\n`

/**
 * SQL expression neutralising a text column, for COPY (column is a trusted identifier). ascii()
 * reads the first character's code without building a substring: = + - @ tab CR.
 */
export const neutraliseSql = (column: string): string =>
  `CASE WHEN ascii(${column}) IN (61, 43, 45, 64, 9, 13) THEN '''' || ${column} ELSE ${column} END`

/**
 * SQL twin of `csvLine`'s cell for a text column (a trusted identifier), neutralised as
 * `neutraliseSql` does: quoted when empty or holding a quote, comma, CR or LF, quotes
 * doubled. Neutralising only prefixes a quote mark, so the column itself decides the quoting.
 */
export const csvCellSql = (column: string): string =>
  `CASE WHEN ${column} = '' OR strpos(${column}, '"') + strpos(${column}, ',') + strpos(${column}, E'\\r') + strpos(${column}, E'\\n') > 0 ` +
  `THEN '"' || replace(${neutraliseSql(column)}, '"', '""') || '"' ELSE ${neutraliseSql(column)} END`
