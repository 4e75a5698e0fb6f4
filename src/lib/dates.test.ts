import { afterEach, describe, expect, it, vi } from 'vitest'
import { RECENT_MS, currentNow, describeWhen, formatDateTime, formatDay, formatExact, formatRelative, minuteTimerState, subscribeMinute, timeOf } from './dates.ts'

/** Thursday 26 November 2026, 20:21:19 UTC: the fixed "now" of every case. */
const NOW = Date.UTC(2026, 10, 26, 20, 21, 19)
const iso = (ms: number) => new Date(ms).toISOString()
const MIN = 60 * 1000
const HOUR = 60 * MIN

describe('describeWhen', () => {
  it('reads a moment of the last day relative, in the locale asked', () => {
    expect(describeWhen(iso(NOW - 3 * MIN), NOW, { locale: 'en-GB', timeZone: 'UTC' })).toMatchObject({ text: '3 minutes ago', recent: true })
    expect(describeWhen(iso(NOW - 3 * MIN), NOW, { locale: 'fr-FR', timeZone: 'Europe/Paris' }).text).toBe('il y a 3 minutes')
    expect(describeWhen(iso(NOW - 5 * HOUR - 59 * MIN), NOW, { locale: 'de-DE' }).text).toBe('vor 5 Stunden')
    expect(describeWhen(iso(NOW - 20 * 1000), NOW, { locale: 'en-US' }).text).toBe('now')
    // A clock a little ahead of the server's: still words, not a negative age.
    expect(describeWhen(iso(NOW + 2 * MIN), NOW, { locale: 'en-US' }).text).toBe('in 2 minutes')
  })

  it('reads an older moment as its date and time in the zone asked, the same exact form in both cases', () => {
    const old = iso(NOW - RECENT_MS - MIN)
    const tokyo = describeWhen(old, NOW, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })
    expect(tokyo.recent).toBe(false)
    // 20:20 UTC on the 25th is 05:20 on the 26th in Tokyo.
    expect(tokyo.text).toBe('26 Nov 2026, 05:20')
    expect(tokyo.exact).toBe(formatExact(old, { locale: 'en-GB', timeZone: 'Asia/Tokyo' }))
    expect(describeWhen(old, NOW, { locale: 'en-US', timeZone: 'America/New_York' }).text).toBe('Nov 25, 2026, 3:20 PM')
    expect(describeWhen(old, NOW, { locale: 'de-DE', timeZone: 'Europe/Berlin' }).text).toBe('25.11.2026, 21:20')
  })

  it('gives the exact moment with seconds and zone for the tooltip, recent or not', () => {
    const recent = describeWhen(iso(NOW - 3 * MIN), NOW, { locale: 'en-GB', timeZone: 'UTC' })
    expect(recent.exact).toBe('Thursday, 26 November 2026 at 20:18:19 UTC')
    expect(describeWhen(iso(NOW - 3 * MIN), NOW, { locale: 'de-DE', timeZone: 'Asia/Tokyo' }).exact).toBe('Freitag, 27. November 2026 um 05:18:19 GMT+9')
  })

  it('shows what is not a date as it came, never "Invalid Date"', () => {
    expect(describeWhen('soon', NOW)).toEqual({ text: 'soon', exact: 'soon', recent: false })
    expect(formatDateTime('n/a')).toBe('n/a')
    expect(timeOf('')).toBeUndefined()
  })
})

describe('formatRelative', () => {
  it('uses the largest whole unit of the gap', () => {
    const en = { locale: 'en-US' }
    expect(formatRelative(NOW - 59 * 1000, NOW, en)).toBe('now')
    expect(formatRelative(NOW - 61 * 1000, NOW, en)).toBe('1 minute ago')
    expect(formatRelative(NOW - 119 * MIN, NOW, en)).toBe('1 hour ago')
    expect(formatRelative(NOW - 23 * HOUR, NOW, { locale: 'es-ES' })).toBe('hace 23 horas')
  })
})

describe('formatDateTime and formatDay', () => {
  it('formats a moment in the zone asked', () => {
    expect(formatDateTime(NOW, { locale: 'en-GB', timeZone: 'Australia/Sydney' })).toBe('27 Nov 2026, 07:21')
  })

  it('keeps a calendar day its own day in every zone', () => {
    expect(formatDay('2026-11-20', 'long', { locale: 'en-GB' })).toBe('20 Nov 2026')
    expect(formatDay('2026-11-20', 'short', { locale: 'en-US' })).toBe('Nov 20')
    expect(formatDay('2026-11-20', 'long', { locale: 'de-DE' })).toBe('20.11.2026')
    expect(formatDay('not a day', 'long')).toBe('not a day')
  })
})

describe('the minute timer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is one timer for every reader, moves them on each minute, and stops with the last', () => {
    vi.useFakeTimers({ now: NOW })
    const heard: number[] = []
    const stops = [0, 1, 2].map((n) => subscribeMinute(() => heard.push(n)))
    expect(minuteTimerState()).toEqual({ listeners: 3, running: true })
    expect(vi.getTimerCount()).toBe(1)
    const before = describeWhen(iso(NOW - 3 * MIN), currentNow(), { locale: 'en-US' }).text
    vi.advanceTimersByTime(2 * MIN)
    expect(heard).toEqual([0, 1, 2, 0, 1, 2])
    expect([before, describeWhen(iso(NOW - 3 * MIN), currentNow(), { locale: 'en-US' }).text]).toEqual(['3 minutes ago', '5 minutes ago'])
    for (const stop of stops) stop()
    expect(minuteTimerState()).toEqual({ listeners: 0, running: false })
    expect(vi.getTimerCount()).toBe(0)
  })
})
