/**
 * Every date the app shows goes through here, in the staff member's locale and time zone (the
 * browser's, unless a caller names others, as the unit tests do). A moment of the last day reads
 * relative ('3 min ago'), an older one as its date and time; either way the exact moment is there
 * to hover and for screen readers (`<When>` in src/crud/list/when.tsx). Free of React, so the early
 * script (src/lib/rows-snapshot.ts) says the kept rows' age the same way. Calendar days (a chart's
 * buckets, which the server counts in UTC) keep their own day whatever the zone. CSV exports and
 * values sent to the server never pass through here: they stay ISO.
 */
/** Moments younger than this read relative ('3 minutes ago'); older ones read as their date. */
export const RECENT_MS = 24 * 60 * 60 * 1000

/** The locale and time zone to show dates in; undefined fields are the browser's own. */
export interface DateContext {
  locale?: string | undefined
  timeZone?: string | undefined
}

/** How one moment reads: its text on screen, its exact form, and whether it read relative. */
export interface Described {
  text: string
  exact: string
  recent: boolean
}

const formats = new Map<string, Intl.DateTimeFormat>()
const relatives = new Map<string, Intl.RelativeTimeFormat>()

/** One formatter per locale, zone and style: making one costs far more than using it. */
function dateFormat(ctx: DateContext, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([ctx.locale ?? '', ctx.timeZone ?? '', options])
  let made = formats.get(key)
  if (made === undefined) {
    made = new Intl.DateTimeFormat(ctx.locale, { ...options, ...(ctx.timeZone === undefined ? {} : { timeZone: ctx.timeZone }) })
    formats.set(key, made)
  }
  return made
}

function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? ''
  let made = relatives.get(key)
  if (made === undefined) {
    made = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' })
    relatives.set(key, made)
  }
  return made
}

const SHORT: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }
/** The hover and screen-reader form: the seconds and the zone's name, nothing left to guess. */
const EXACT: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'long' }

/** A value as a time in ms, or undefined when it is not a date (shown as it came, never "Invalid Date"). */
export function timeOf(value: string | number | Date): number | undefined {
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  return Number.isNaN(time) ? undefined : time
}

/** A moment's date and time ('26 Nov 2026, 20:21'): where relative text would not fit (a sentence of a notice). */
export function formatDateTime(value: string | number | Date, ctx: DateContext = {}): string {
  const time = timeOf(value)
  return time === undefined ? String(value) : dateFormat(ctx, SHORT).format(time)
}

/** A moment exactly, with seconds and zone ('Thursday 26 November 2026 at 20:21:19 UTC'). */
export function formatExact(value: string | number | Date, ctx: DateContext = {}): string {
  const time = timeOf(value)
  return time === undefined ? String(value) : dateFormat(ctx, EXACT).format(time)
}

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
]

/** '3 minutes ago', 'in 5 minutes', 'now': the largest whole unit of the gap (a minute's ticks never show seconds). */
export function formatRelative(time: number, now: number, ctx: DateContext = {}): string {
  const gap = time - now
  const size = Math.abs(gap)
  const format = relativeFormat(ctx.locale)
  if (size < 60 * 1000) return format.format(0, 'second')
  for (const [unit, ms] of UNITS) {
    if (size >= ms) return format.format(Math.trunc(gap / ms), unit)
  }
  return format.format(0, 'second')
}

/** How a moment reads at `now`: relative within RECENT_MS (either side), else its date and time. */
export function describeWhen(value: string | number | Date, now: number, ctx: DateContext = {}): Described {
  const time = timeOf(value)
  if (time === undefined) return { text: String(value), exact: String(value), recent: false }
  const recent = Math.abs(now - time) < RECENT_MS
  return { text: recent ? formatRelative(time, now, ctx) : dateFormat(ctx, SHORT).format(time), exact: dateFormat(ctx, EXACT).format(time), recent }
}

/** A calendar day ('2026-11-20'), as that day whatever the zone: `long` says the year ('20 Nov 2026'), short does not ('20 Nov'). */
export function formatDay(day: string, style: 'short' | 'long', ctx: DateContext = {}): string {
  const time = Date.parse(`${day}T00:00:00Z`)
  if (Number.isNaN(time)) return day
  const options: Intl.DateTimeFormatOptions = style === 'long' ? { dateStyle: 'medium' } : { month: 'short', day: 'numeric' }
  return dateFormat({ locale: ctx.locale, timeZone: 'UTC' }, options).format(time)
}

/*
 * One minute timer for the whole page, running only while something shows a relative date: every
 * `<When>` reads the same `now`, so a table of 50 rows re-renders once a minute, not 50 times.
 */
const MINUTE = 60 * 1000
const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined

function tick(): void {
  now = Date.now()
  for (const listener of listeners) listener()
}

/** Listens to the shared minute timer (started by the first listener, stopped with the last); returns the unsubscribe. */
export function subscribeMinute(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === undefined) {
    // A subscriber arriving after a quiet spell must not show a stale minute.
    now = Date.now()
    timer = setInterval(tick, MINUTE)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

/** The shared `now`; while no timer runs it catches up when a minute or more old (stable within the minute, as React wants). */
export function currentNow(): number {
  if (timer === undefined && Math.abs(Date.now() - now) >= MINUTE) now = Date.now()
  return now
}

/** How many components listen to the shared timer, and whether it runs (the unit tests read it). */
export const minuteTimerState = (): { listeners: number; running: boolean } => ({ listeners: listeners.size, running: timer !== undefined })
