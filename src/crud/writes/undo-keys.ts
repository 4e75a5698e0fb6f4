/**
 * Undo's part that every signed-in screen needs (undo.ts has the rest): Ctrl+Z, and the toasts of
 * a reload's pending undos. Undo's code (its schema, its call, its toasts) loads on a write's
 * answer or when undos are pending, not with the first screen.
 */
import { useLayoutEffect } from 'react'
import { useSWRConfig, type ScopedMutator } from 'swr'
import { toast } from '#src/ui/toast.ts'
import { targetIsTaken } from '../list/list-keys.ts'
import { PENDING_UNDOS_KEY } from './undo-storage.ts'
import type * as UndoModule from './undo.ts'

type UndoCode = typeof UndoModule
let loaded: UndoCode | undefined

const loadUndo = async (): Promise<UndoCode> => (loaded ??= await import('./undo.ts'))

function undosPending(): boolean {
  try {
    return sessionStorage.getItem(PENDING_UNDOS_KEY) !== null
  } catch {
    return false
  }
}

/**
 * Toasts a write's answer: with an Undo while its ticket lasts (`admin`: whose session made it),
 * else the plain success toast (undo.ts). Should undo's code not arrive, the plain toast.
 */
export function toastWriteAnswer(answer: { message: string; undo?: unknown }, mutate: ScopedMutator, admin: string): void {
  if (loaded !== undefined) {
    loaded.toastAnswerWithUndo(answer, mutate, admin)
    return
  }
  loadUndo().then(
    (undo) => undo.toastAnswerWithUndo(answer, mutate, admin),
    () => toast.success(answer.message),
  )
}

/** The signed-in frame's part: Undo toasts come back after a reload, and Ctrl+Z (Cmd+Z) outside fields presses the latest. */
export function usePendingUndos(admin: string): void {
  const { mutate } = useSWRConfig()
  // Bound before the first paint, as the other keys (src/app/layout.tsx).
  useLayoutEffect(() => {
    if (undosPending()) void loadUndo().then((undo) => undo.resumeUndos(mutate, admin))
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || event.key.toLowerCase() !== 'z') return
      // A field's own undo, a dialog or a menu keep the key.
      if (event.defaultPrevented || targetIsTaken(event.target)) return
      // No Undo toast was shown without undo's code: until it has loaded there is nothing to press.
      if (loaded?.undoLatest(mutate, admin) === true) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [mutate, admin])
}
