/**
 * Work the first screen does not need (the service worker, the real-time link): run it once the
 * page has loaded and the main thread is idle, so neither its download nor its start-up competes
 * with the first render. `timeout` bounds the wait for idleness on a busy main thread.
 */
export function afterLoadAndIdle(run: () => void, timeout = 2000): () => void {
  let cancelled = false
  let idleHandle: number | undefined
  let timer: number | undefined
  const whenIdle = () => {
    if (cancelled) return
    if (typeof window.requestIdleCallback === 'function') idleHandle = window.requestIdleCallback(() => cancelled || run(), { timeout })
    else timer = window.setTimeout(() => cancelled || run(), 0)
  }
  const onLoad = () => whenIdle()
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', onLoad, { once: true })
  return () => {
    cancelled = true
    window.removeEventListener('load', onLoad)
    if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle)
    if (timer !== undefined) window.clearTimeout(timer)
  }
}
