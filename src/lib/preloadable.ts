/**
 * React.lazy that can be loaded ahead and then renders without suspending.
 *
 * A lazy component suspends on its first render even when its chunk has already arrived, and
 * React keeps a Suspense boundary's fallback on screen for at least 300 ms once it has shown it,
 * to avoid flicker. At start-up that cost every signed-in visit about 300 ms: the first screen's
 * chunk was there, yet its data was only asked for once the fallback's time was up. main.tsx
 * loads the signed-in area and the first screen before the first render (`preload`), and a
 * component whose chunk is in renders it directly; one that is not yet loaded suspends as before.
 */
import { createElement, lazy, type ComponentType } from 'react'

export interface Preloadable<P extends object> {
  Component: ComponentType<P>
  /** Starts loading the chunk (once; again after a failure); resolves when it can render. */
  preload: () => Promise<ComponentType<P>>
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  const preload = (): Promise<ComponentType<P>> => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A chunk that failed to arrive (offline, a new deploy) may be asked for again.
        pending = undefined
        throw error
      },
    )
    return pending
  }
  const Lazy = lazy(async () => ({ default: await preload() }))
  function Component(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props)
  }
  return { Component, preload }
}
