/**
 * Server events for the screens (a promotion's delivery progress), apart from the socket itself:
 * a screen subscribes here without loading socket.io-client, and socket.ts hands over every event
 * the server sends once the link is up. Payloads are unknown: each subscriber parses its own.
 */
type Listener = (payload: unknown) => void

const listeners = new Map<string, Set<Listener>>()

/** Calls `listener` with each payload of `event`; returns the unsubscribe. */
export function onRealtime(event: string, listener: Listener): () => void {
  const set = listeners.get(event) ?? new Set<Listener>()
  listeners.set(event, set)
  set.add(listener)
  return () => {
    set.delete(listener)
    if (set.size === 0) listeners.delete(event)
  }
}

/** Hands one server event to its subscribers (called by socket.ts). */
export function dispatchRealtime(event: string, payload: unknown): void {
  for (const listener of listeners.get(event) ?? []) listener(payload)
}
