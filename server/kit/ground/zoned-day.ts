/**
 * Calendar days in a time zone as instants: a filter's "from 3 March to 5 March" in the admin's
 * zone becomes created_at >= the first instant of 3 March there and < the first instant of 6
 * March there. Computed here (Intl's time zone data) rather than in SQL, so both engines answer
 * alike whatever time zone data the database carries.
 */

const DAY_MS = 86_400_000

const formats = new Map<string, Intl.DateTimeFormat>()

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    formats.set(zone, format)
  }
  return format
}

/** Date.UTC without its mapping of the years 0 to 99 to 1900 to 1999. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const at = new Date(Date.UTC(2000, month - 1, day, hour, minute, second))
  at.setUTCFullYear(year, month - 1, day)
  return at.getTime()
}

/** The wall clock of `zone` at the instant `at`, written as if it were UTC (ms). */
function wallClock(at: number, zone: string): number {
  const parts = formatIn(zone).formatToParts(at)
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0)
  // Years before the common era come as 1, 2, ... with an era part: no lead is that old, the clock reads as the year given.
  return utc(part('year'), part('month'), part('day'), part('hour'), part('minute'), part('second'))
}

/** Midnight UTC of `day` (YYYY-MM-DD, a real day: contract/common.ts calendarDay). */
const midnight = (day: string): number => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number)
  return utc(year, month, date)
}

/** YYYY-MM-DD of a UTC instant (years past 9999 keep their digits). */
const dayOf = (at: number): string => {
  const d = new Date(at)
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`
}

/** How far `zone`'s clock is ahead of UTC at `at` (ms; whole seconds). */
const offsetAt = (at: number, zone: string): number => wallClock(at, zone) - Math.floor(at / 1000) * 1000

/** `day` (YYYY-MM-DD) moved by `days`. */
export function addDays(day: string, days: number): string {
  return dayOf(midnight(day) + days * DAY_MS)
}

/**
 * The first instant of `day` (YYYY-MM-DD) in `zone` (an IANA name; '' is UTC). Where the clocks
 * jump over midnight that day starts at the jump's end (01:00), and where they fall back over it
 * at the second midnight.
 */
export function startOfDay(day: string, zone: string): Date {
  const wall = midnight(day)
  if (zone === '' || zone === 'UTC') return new Date(wall)
  // The day's start is midnight less the offset in force then: one of the offsets around it.
  const candidates = [wall - DAY_MS, wall, wall + DAY_MS].map((near) => wall - offsetAt(near, zone)).sort((a, b) => a - b)
  const inDay = candidates.filter((at) => dayOf(wallClock(at, zone)) === day)
  return new Date(inDay[0] ?? candidates[0] ?? wall)
}
