import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QUIET_WAIT_MS, afterLoadAndIdle, trackCall } from './idle.ts'

/** A page that has loaded, whose idle callbacks run when the test says the main thread is idle. */
function loadedPage() {
  const idle: Array<() => void> = []
  vi.stubGlobal('document', { readyState: 'complete' })
  vi.stubGlobal('window', {
    requestIdleCallback: (run: () => void) => idle.push(run),
    cancelIdleCallback: () => {},
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
    addEventListener: () => {},
    removeEventListener: () => {},
  })
  return {
    runIdle: () => {
      for (const run of idle.splice(0)) run()
    },
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('afterLoadAndIdle', () => {
  let page: ReturnType<typeof loadedPage>
  beforeEach(() => {
    page = loadedPage()
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('runs once the page is idle when no call is in flight', () => {
    const run = vi.fn()
    afterLoadAndIdle(run)
    page.runIdle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('waits for the calls in flight to answer (or fail) before it runs', async () => {
    let answer: () => void = () => {}
    let refuse: (error: Error) => void = () => {}
    void trackCall(new Promise<void>((resolve) => (answer = resolve)))
    trackCall(new Promise<void>((_, reject) => (refuse = reject))).catch(() => {})
    const run = vi.fn()
    afterLoadAndIdle(run)
    page.runIdle()
    expect(run).not.toHaveBeenCalled()
    answer()
    await settle()
    page.runIdle()
    expect(run).not.toHaveBeenCalled()
    refuse(new Error('offline'))
    await settle()
    page.runIdle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('waits again when a call starts while it waits for idleness (the first screen asking for its data)', async () => {
    const run = vi.fn()
    afterLoadAndIdle(run)
    let answer: () => void = () => {}
    void trackCall(new Promise<void>((resolve) => (answer = resolve)))
    page.runIdle()
    expect(run).not.toHaveBeenCalled()
    answer()
    await settle()
    page.runIdle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('runs once: the bound on the wait for calls does not run it again after the calls answered', async () => {
    vi.useFakeTimers()
    try {
      let answer: () => void = () => {}
      void trackCall(new Promise<void>((resolve) => (answer = resolve)))
      const run = vi.fn()
      afterLoadAndIdle(run)
      answer()
      await vi.advanceTimersByTimeAsync(0)
      page.runIdle()
      expect(run).toHaveBeenCalledOnce()
      await vi.advanceTimersByTimeAsync(QUIET_WAIT_MS)
      page.runIdle()
      expect(run).toHaveBeenCalledOnce()
    } finally {
      vi.useRealTimers()
    }
  })

  it('never runs once cancelled, even when the calls answer later', async () => {
    let answer: () => void = () => {}
    void trackCall(new Promise<void>((resolve) => (answer = resolve)))
    const run = vi.fn()
    const cancel = afterLoadAndIdle(run)
    cancel()
    answer()
    await settle()
    page.runIdle()
    expect(run).not.toHaveBeenCalled()
  })

  it('stops waiting for calls after QUIET_WAIT_MS (a long download does not hold the link back for good)', () => {
    vi.useFakeTimers()
    let finish: () => void = () => {}
    try {
      void trackCall(new Promise<void>((resolve) => (finish = resolve)))
      const run = vi.fn()
      afterLoadAndIdle(run)
      page.runIdle()
      vi.advanceTimersByTime(QUIET_WAIT_MS - 1)
      page.runIdle()
      expect(run).not.toHaveBeenCalled()
      vi.advanceTimersByTime(1)
      page.runIdle()
      expect(run).toHaveBeenCalledOnce()
    } finally {
      finish()
      vi.useRealTimers()
    }
  })
})
