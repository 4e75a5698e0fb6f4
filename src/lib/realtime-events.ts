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

/** Sends one event over the link and resolves with the server's acknowledgement. */
type Sender = (event: string, payload: unknown) => Promise<unknown>

let sender: Sender | null = null
const connectListeners = new Set<() => void>()

/**
 * The link is up (a sender) or down (null); socket.ts says so on every connect and disconnect.
 * Each connect is told to the screens: rooms do not survive a reconnect, so they say again what they have open.
 */
export function setRealtimeSender(next: Sender | null): void {
  sender = next
  if (next !== null) for (const listener of connectListeners) listener()
}

/** Calls `listener` each time the link (re)connects; returns the unsubscribe. */
export function onRealtimeConnect(listener: () => void): () => void {
  connectListeners.add(listener)
  return () => connectListeners.delete(listener)
}

/** Sends an event and waits for its acknowledgement; rejects while the link is down or the server does not answer. */
export function sendRealtime(event: string, payload: unknown): Promise<unknown> {
  return sender === null ? Promise.reject(new Error('The live link is not connected')) : sender(event, payload)
}
