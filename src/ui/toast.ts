/**
 * Toasts (spec section 8: top right, 2 seconds). A tiny store that any layer may call;
 * `<Toaster/>` (toaster.tsx) renders it in live regions so screen readers announce each message.
 */
export type ToastKind = 'success' | 'error' | 'info'

export interface ToastItem {
  id: number
  kind: ToastKind
  message: string
  /** Milliseconds; 2000 per the spec unless an action needs longer to be reached. */
  duration: number
  action?: { label: string; run: () => void }
}

export const TOAST_DURATION = 2000

let items: readonly ToastItem[] = []
let nextId = 1
const listeners = new Set<() => void>()

function emit(): void {
  for (const listener of listeners) listener()
}

function push(kind: ToastKind, message: string, extra: Partial<Pick<ToastItem, 'duration' | 'action'>> = {}): number {
  const id = nextId++
  items = [...items, { id, kind, message, duration: extra.duration ?? TOAST_DURATION, ...(extra.action ? { action: extra.action } : {}) }]
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
  dismiss(id: number): void {
    items = items.filter((t) => t.id !== id)
    emit()
  },
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getToasts = (): readonly ToastItem[] => items
