import { describe, expect, it } from 'vitest'
import { addDays, startOfDay } from './zoned-day.ts'

const iso = (day: string, zone: string) => startOfDay(day, zone).toISOString()

describe('startOfDay', () => {
  it('is midnight UTC for UTC and for no zone', () => {
    expect(iso('2026-03-05', '')).toBe('2026-03-05T00:00:00.000Z')
    expect(iso('2026-03-05', 'UTC')).toBe('2026-03-05T00:00:00.000Z')
  })

  it("is local midnight in the zone's offset, east and west of UTC", () => {
    expect(iso('2026-01-15', 'Europe/Lisbon')).toBe('2026-01-15T00:00:00.000Z')
    expect(iso('2026-07-15', 'Europe/Lisbon')).toBe('2026-07-14T23:00:00.000Z')
    expect(iso('2026-01-15', 'Asia/Kolkata')).toBe('2026-01-14T18:30:00.000Z')
    expect(iso('2026-01-15', 'America/New_York')).toBe('2026-01-15T05:00:00.000Z')
    expect(iso('2026-01-15', 'Pacific/Kiritimati')).toBe('2026-01-14T10:00:00.000Z')
  })

  it('follows the offset in force at midnight on the days the clocks change, and the days after', () => {
    // Europe/Paris moves to summer time at 02:00 on 29 March 2026: midnight is still at +1.
    expect(iso('2026-03-29', 'Europe/Paris')).toBe('2026-03-28T23:00:00.000Z')
    expect(iso('2026-03-30', 'Europe/Paris')).toBe('2026-03-29T22:00:00.000Z')
    // Back to winter time at 03:00 on 25 October 2026.
    expect(iso('2026-10-25', 'Europe/Paris')).toBe('2026-10-24T22:00:00.000Z')
    expect(iso('2026-10-26', 'Europe/Paris')).toBe('2026-10-25T23:00:00.000Z')
  })

  it('starts a day whose midnight the clocks skip at the end of the jump', () => {
    // America/Santiago jumps from 00:00 to 01:00 on 6 September 2026 (-04 to -03).
    expect(iso('2026-09-06', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z')
    expect(iso('2026-09-05', 'America/Santiago')).toBe('2026-09-05T04:00:00.000Z')
  })
})

describe('addDays', () => {
  it('moves across months and years', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  })

  it('keeps the first and the last years a day can name', () => {
    expect(addDays('9999-12-31', 1)).toBe('10000-01-01')
    expect(iso('0001-01-01', 'UTC')).toBe('0001-01-01T00:00:00.000Z')
    expect(iso('0050-06-01', 'Europe/Lisbon').slice(0, 10)).toMatch(/^0050-0[56]-/)
    expect(startOfDay(addDays('9999-12-31', 1), 'Asia/Tokyo').getTime()).toBeGreaterThan(startOfDay('9999-12-31', 'Asia/Tokyo').getTime())
  })
})
