/**
 * Toasts (requirements R8.1, R9.5: top right, 2 seconds). A tiny store that any layer may call;
 * `<Toaster/>` (toaster.tsx) renders it in live regions so screen readers announce each message.
 */
export type ToastKind = 'success' | 'error' | 'info'

export interface ToastItem {
  id: number
  kind: ToastKind
  message: string
  /** Milliseconds; 2000 per requirements R9.5 unless an action needs longer to be reached. */
  duration: number
  action?: { label: string; run: () => void }
  /** A time (ms since the epoch) it goes at, hovered or not: an Undo the server allows only until then. */
  deadline?: number
  /** Called when it goes, by its timer or by Dismiss. */
  onDismiss?: () => void
}

export const TOAST_DURATION = 2000

let items: readonly ToastItem[] = []
let nextId = 1
const listeners = new Set<() => void>()

function emit(): void {
  for (const listener of listeners) listener()
}

function push(kind: ToastKind, message: string, extra: Partial<Omit<ToastItem, 'id' | 'kind' | 'message'>> = {}): number {
  const id = nextId++
  items = [...items, { ...extra, id, kind, message, duration: extra.duration ?? TOAST_DURATION }]
  emit()
  return id
}

export const toast = {
  success: (message: string) => push('success', message),
  error: (message: string) => push('error', message),
  /** An error that stays until dismissed: why a session ended, for a user who may come back to the screen much later. */
  lasting: (message: string) => push('error', message, { duration: Number.POSITIVE_INFINITY }),
  /** A message with one action; it stays until dismissed (used for "Reload to update"). */
  action: (message: string, label: string, run: () => void) =>
    push('info', message, { duration: Number.POSITIVE_INFINITY, action: { label, run } }),
  /** A message with one action that goes after `duration` ms (hovering or focusing it holds it), for news one may act on. */
  notice: (message: string, label: string, run: () => void, duration: number) => push('info', message, { duration, action: { label, run } }),
  /** A success with one action that stays until `deadline` (an Undo), whatever the 2 seconds of other toasts. */
  until: (message: string, label: string, run: () => void, deadline: number, onDismiss?: () => void) =>
    push('success', message, { duration: Math.max(0, deadline - Date.now()), deadline, action: { label, run }, ...(onDismiss ? { onDismiss } : {}) }),
  dismiss(id: number): void {
    const gone = items.find((t) => t.id === id)
    items = items.filter((t) => t.id !== id)
    emit()
    gone?.onDismiss?.()
  },
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getToasts = (): readonly ToastItem[] => items
