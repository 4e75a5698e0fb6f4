/**
 * Controls whose code is fetched the first time someone reaches for them, not with the screen:
 * the header's account menu, a list's page-size menu and the row buttons' tooltips (Radix menus,
 * select and tooltip, with the positioning code they share, are a fifth of a list's JavaScript).
 *
 * Until the code arrives the control renders a placeholder trigger that looks and reads the same.
 * Hovering or focusing it starts the fetch; pressing it (pointer, or an opening key) asks the real
 * control to open as soon as it arrives. The swap keeps what the user was doing: it waits until a
 * pressed pointer or key is released (so a click is not split between two elements), the focus
 * and the hover move to the real trigger, and a press before arrival opens it.
 */
import { useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent } from 'react'

export interface Deferred<M> {
  /** Starts the fetch (once; again after a failure) and resolves with the module. */
  load: () => Promise<M>
  /** The module once it arrived, else undefined; re-renders when it does. */
  useModule: () => M | undefined
  /** The element that had the focus when the module arrived. */
  focusedOnArrival: () => Element | null
}

// A press in progress: a pointer button or an activating key held down. The swap waits for it.
let pressed = false
const settledQueue: Array<() => void> = []
let watching = false

function flushSoon(): void {
  // After the release's own click (dispatched right after pointerup or keyup), not before it.
  window.setTimeout(() => {
    if (pressed) return
    for (const run of settledQueue.splice(0)) run()
  }, 0)
}

function watchPresses(): void {
  if (watching) return
  watching = true
  const down = () => {
    pressed = true
  }
  const up = () => {
    pressed = false
    flushSoon()
  }
  const isActivation = (event: globalThis.KeyboardEvent) => event.key === 'Enter' || event.key === ' '
  window.addEventListener('pointerdown', down, true)
  window.addEventListener('pointerup', up, true)
  window.addEventListener('pointercancel', up, true)
  window.addEventListener('keydown', (event) => isActivation(event) && down(), true)
  window.addEventListener('keyup', (event) => isActivation(event) && up(), true)
  window.addEventListener('blur', up)
}

/** Runs `run` once no press is in progress (at most a second later, whatever happens). */
function whenSettled(run: () => void): void {
  if (!pressed) return run()
  let done = false
  const once = () => {
    if (done) return
    done = true
    run()
  }
  settledQueue.push(once)
  window.setTimeout(once, 1000)
}

/** A module fetched on demand; every component using it re-renders once it is here. */
export function deferred<M>(importer: () => Promise<M>): Deferred<M> {
  let module: M | undefined
  let pending: Promise<M> | undefined
  let focused: Element | null = null
  const listeners = new Set<() => void>()
  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }
  return {
    load() {
      watchPresses()
      pending ??= importer().then(
        (loaded) =>
          new Promise<M>((resolve) =>
            whenSettled(() => {
              focused = document.activeElement
              module = loaded
              for (const listener of listeners) listener()
              resolve(loaded)
            }),
          ),
        (error: unknown) => {
          pending = undefined
          throw error
        },
      )
      return pending
    },
    useModule: () =>
      useSyncExternalStore(
        subscribe,
        () => module,
        () => undefined,
      ),
    focusedOnArrival: () => focused,
  }
}

const SLOT = 'data-deferred-slot'

export interface PlaceholderProps {
  'data-deferred-slot': string
  onPointerEnter: () => void
  onPointerLeave: () => void
  onFocus: () => void
  onPointerDown: (event: PointerEvent) => void
  onKeyDown: (event: KeyboardEvent) => void
}

export interface DeferredTrigger<M> {
  module: M | undefined
  /** Pressed before the code arrived (and how): render the real control open. */
  openOnArrival: 'pointer' | 'keyboard' | null
  /** Put on the real trigger as well: the focus and the hover are carried over to it. */
  slot: { 'data-deferred-slot': string }
  /** Spread on the placeholder trigger (compose with its own handlers, see withHandlers). */
  placeholder: PlaceholderProps
}

/**
 * The placeholder side of a deferred control. `opens`: whether a press opens the control (menus
 * and selects, on a primary-button pointer press or one of `openKeys`); tooltips only fetch.
 */
export function useDeferredTrigger<M>(code: Deferred<M>, opens: { openKeys: readonly string[] } | null): DeferredTrigger<M> {
  const module = code.useModule()
  const id = useId()
  const [openOnArrival, setOpenOnArrival] = useState<'pointer' | 'keyboard' | null>(null)
  const [startedWithout] = useState(() => module === undefined)
  const hovered = useRef(false)
  const carried = useRef(false)

  useLayoutEffect(() => {
    if (module === undefined || !startedWithout || carried.current) return
    carried.current = true
    const real = document.querySelector(`[${SLOT}="${CSS.escape(id)}"]`)
    if (!(real instanceof HTMLElement)) return
    const active = document.activeElement
    const focusLost = active === null || active === document.body
    if (openOnArrival === null && focusLost && code.focusedOnArrival()?.getAttribute(SLOT) === id) real.focus()
    // The pointer rests on the new trigger: tell it, as the next movement would.
    if (hovered.current) real.dispatchEvent(new window.PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse' }))
  }, [module, startedWithout, openOnArrival, code, id])

  const fetchCode = () => void code.load().catch(() => undefined)
  const requestOpen = (how: 'pointer' | 'keyboard') => {
    setOpenOnArrival(how)
    fetchCode()
  }
  return {
    module,
    openOnArrival,
    slot: { [SLOT]: id },
    placeholder: {
      [SLOT]: id,
      onPointerEnter: () => {
        hovered.current = true
        fetchCode()
      },
      onPointerLeave: () => {
        hovered.current = false
      },
      onFocus: fetchCode,
      onPointerDown: (event) => {
        if (opens && event.button === 0 && !event.ctrlKey) requestOpen('pointer')
        else fetchCode()
      },
      onKeyDown: (event) => {
        if (!opens?.openKeys.includes(event.key)) return
        event.preventDefault()
        requestOpen('keyboard')
      },
    },
  }
}

type Handler = (...args: never[]) => unknown

/** The placeholder's handlers run after the element's own ones of the same name. */
export function withHandlers(own: object, added: PlaceholderProps): Record<string, unknown> {
  const mine = own as Record<string, unknown>
  const merged: Record<string, unknown> = { ...mine }
  for (const [name, handler] of Object.entries(added) as Array<[string, unknown]>) {
    const theirs = mine[name]
    merged[name] =
      typeof handler === 'function' && typeof theirs === 'function'
        ? (...args: never[]) => {
            ;(theirs as Handler)(...args)
            ;(handler as Handler)(...args)
          }
        : handler
  }
  return merged
}
