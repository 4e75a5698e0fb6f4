import { beforeEach, describe, expect, it, vi } from 'vitest'

let data: Map<string, string>
beforeEach(() => {
  data = new Map()
  vi.resetModules()
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    },
    addEventListener: () => {},
  })
})

describe('activity', () => {
  it('writes to storage at most every few seconds, and counts at once in this tab', async () => {
    const { ACTIVITY_KEY, ACTIVITY_WRITE_GAP_MS, lastActivity, recordActivity } = await import('./activity.ts')
    expect(lastActivity()).toBeNull()
    recordActivity(1_000_000)
    expect(data.get(ACTIVITY_KEY)).toBe('1000000')
    recordActivity(1_001_000)
    expect(data.get(ACTIVITY_KEY)).toBe('1000000')
    expect(lastActivity()).toBe(1_001_000)
    recordActivity(1_000_000 + ACTIVITY_WRITE_GAP_MS)
    expect(data.get(ACTIVITY_KEY)).toBe(String(1_000_000 + ACTIVITY_WRITE_GAP_MS))
    // "Stay signed in" writes through at once.
    recordActivity(1_000_000 + ACTIVITY_WRITE_GAP_MS + 10, true)
    expect(data.get(ACTIVITY_KEY)).toBe(String(1_000_000 + ACTIVITY_WRITE_GAP_MS + 10))
  })

  it('takes the latest activity of any tab, and tells when a session went idle', async () => {
    const { ACTIVITY_KEY, idleExpired, lastActivity, recordActivity } = await import('./activity.ts')
    // No activity recorded yet: not idle (the session counts from now).
    expect(idleExpired(60, Date.now())).toBe(false)
    recordActivity(1_000_000, true)
    // Another tab was active later.
    data.set(ACTIVITY_KEY, '1030000')
    expect(lastActivity()).toBe(1_030_000)
    expect(idleExpired(60, 1_089_999)).toBe(false)
    expect(idleExpired(60, 1_090_000)).toBe(true)
  })
})
